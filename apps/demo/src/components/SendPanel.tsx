import {
  LatchkeyError,
  useSendTransaction,
  useSignTransaction,
  useSolanaWallets,
  useWallets,
} from '@latchkey/react'
import { useSendTransaction as useSendSolanaTransaction } from '@latchkey/react/solana'
import { useMemo, useState } from 'react'
import { encodeFunctionData, erc20Abi, erc721Abi, maxUint256, parseEther, parseUnits } from 'viem'
import { foundry } from 'viem/chains'
import { readDemoConfig } from '../config.ts'
import { describeError } from './describe-error.ts'

// Anvil's second dev account: somewhere to send to.
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
// A fixed Solana address to send test SOL to.
const SOL_RECIPIENT = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const SOL = 1_000_000_000n
const mintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
] as const

/** @solana/kit and the System program's client, loaded on first use. */
const solanaKit = () => Promise.all([import('@solana/kit'), import('@solana-program/system')])

/** An unsigned 0.01 SOL transfer from `from`, as an app builds one, on the ledger's latest blockhash. */
async function solTransfer(rpcUrl: string, from: string): Promise<Uint8Array> {
  const [kit, system] = await solanaKit()
  const { value: lifetime } = await kit.createSolanaRpc(rpcUrl).getLatestBlockhash().send()
  const source = kit.createNoopSigner(kit.address(from))
  const destination = kit.address(SOL_RECIPIENT)
  const transfer = system.getTransferSolInstruction({ source, destination, amount: SOL / 100n })
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayer(source.address, m),
    (m) => kit.setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => kit.appendTransactionMessageInstructions([transfer], m),
  )
  return new Uint8Array(kit.getTransactionEncoder().encode(kit.compileTransaction(message)))
}

/** A closed confirm screen is the user's choice (4001), not a failure. */
const isRejection = (e: unknown) => (e as { code?: unknown })?.code === 4001

/**
 * The Send panel: transactions from the embedded Ethereum wallet on the
 * local Anvil chain `npm start` runs — ETH, the test ERC-20 (mint, transfer,
 * an unlimited approval: 'Maximum') and an NFT approval — and SOL from the
 * embedded Solana wallet on the local ledger, each through the confirm
 * screen; faucet buttons fund the wallets first.
 */
export function SendPanel() {
  const demo = useMemo(() => readDemoConfig(), [])
  const wallet = useWallets().wallets.find((w) => w.connectorType === 'embedded')
  const { sendTransaction } = useSendTransaction()
  const { signTransaction } = useSignTransaction()
  const solana = useSolanaWallets().wallets.find((w) => w.connectorType === 'embedded')
  const { sendTransaction: sendSol } = useSendSolanaTransaction()
  const [busy, setBusy] = useState<string | null>(null)
  const [result, setResult] = useState<{ label: string; value: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [amount, setAmount] = useState('0.01')
  const chainId = foundry.id
  const owner = wallet?.address as `0x${string}` | undefined

  async function run(label: string, action: () => Promise<string>) {
    setBusy(label)
    setError(null)
    setResult(null)
    try {
      setResult({ label, value: await action() })
    } catch (e) {
      if (isRejection(e)) setError('Nothing sent: the dialog was closed.')
      else
        setError(e instanceof LatchkeyError ? `${e.code}: ${describeError(e)}` : describeError(e))
    } finally {
      setBusy(null)
    }
  }

  // Anvil's own dev method: 10 ETH for the wallet (a local faucet; no real chain has it).
  const fund = () =>
    run('Funded', async () => {
      const response = await fetch(demo.localRpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'anvil_setBalance',
          params: [owner, `0x${parseEther('10').toString(16)}`],
        }),
      })
      if (!response.ok) throw new Error(`The local chain answered ${response.status}`)
      return '10 ETH on the local chain'
    })
  const send = (label: string, to: `0x${string}`, data?: `0x${string}`, value?: bigint) =>
    run(label, async () => (await sendTransaction({ chainId, to, data, value })).hash)
  // The ledger stand-in answers requestAirdrop at once (a local faucet: no rate limits).
  const airdrop = () =>
    run('Airdropped', async () => {
      const [kit] = await solanaKit()
      const to = kit.address(solana?.address ?? '')
      return kit.createSolanaRpc(demo.solanaRpcUrl).requestAirdrop(to, kit.lamports(SOL)).send()
    })
  const sendSolana = () =>
    run('SOL sent', async () => {
      const transaction = await solTransfer(demo.solanaRpcUrl, solana?.address ?? '')
      return (await sendSol({ transaction })).signature
    })
  const erc20 = demo.erc20
  const erc721 = demo.erc721

  const eth = owner !== undefined
  const buttons: Array<[string, () => void, boolean]> = [
    ['Get 10 test ETH', fund, eth],
    ['Send ETH', () => send('ETH sent', RECIPIENT, undefined, parseEther(amount || '0')), eth],
    [
      'Sign transaction only',
      () =>
        run(
          'Signed',
          async () => (await signTransaction({ chainId, to: RECIPIENT, value: 1n })).signature,
        ),
      eth,
    ],
    [
      'Mint 100 TUSD',
      () =>
        send(
          'TUSD minted',
          erc20 as `0x${string}`,
          encodeFunctionData({
            abi: mintAbi,
            functionName: 'mint',
            args: [owner as `0x${string}`, parseUnits('100', 6)],
          }),
        ),
      eth && erc20 !== null,
    ],
    [
      'Send 5 TUSD',
      () =>
        send(
          'TUSD sent',
          erc20 as `0x${string}`,
          encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [RECIPIENT, parseUnits('5', 6)],
          }),
        ),
      eth && erc20 !== null,
    ],
    [
      'Approve unlimited TUSD',
      () =>
        send(
          'TUSD approved',
          erc20 as `0x${string}`,
          encodeFunctionData({
            abi: erc20Abi,
            functionName: 'approve',
            args: [RECIPIENT, maxUint256],
          }),
        ),
      eth && erc20 !== null,
    ],
    [
      // A multi-step request: '(1 / 2)' with 'Continue', then '(2 / 2)' with 'Approve'.
      'Approve and send 1 TUSD',
      () =>
        run('Two steps sent', async () => {
          const token = erc20 as `0x${string}`
          const call = (functionName: 'approve' | 'transfer', amount: bigint) => ({
            chainId,
            to: token,
            data: encodeFunctionData({ abi: erc20Abi, functionName, args: [RECIPIENT, amount] }),
          })
          const { steps } = await sendTransaction([
            call('approve', parseUnits('1', 6)),
            call('transfer', parseUnits('1', 6)),
          ])
          return steps.map((step) => step.hash).join(' ')
        }),
      eth && erc20 !== null,
    ],
    [
      'Approve NFT collection',
      () =>
        send(
          'NFTs approved',
          erc721 as `0x${string}`,
          encodeFunctionData({
            abi: erc721Abi,
            functionName: 'setApprovalForAll',
            args: [RECIPIENT, true],
          }),
        ),
      eth && erc721 !== null,
    ],
    // The embedded Solana wallet, on the local ledger (the app's `solanaClusters`).
    ['Get 1 test SOL', airdrop, solana !== undefined],
    ['Send 0.01 SOL', sendSolana, solana !== undefined],
  ]

  return (
    <div className="section">
      <h3 className="section-title">Send (local chain)</h3>
      <p className="muted">
        Anvil at <code>{demo.localRpcUrl}</code> (chain {chainId}) and the Solana ledger at{' '}
        <code>{demo.solanaRpcUrl}</code>. Every transaction opens the confirm screen; the key stays
        in the enclave.
      </p>
      <label className="field-inline">
        ETH amount{' '}
        <input
          className="input"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value.replace(/[^0-9.]/g, ''))}
          aria-label="ETH amount"
        />
      </label>
      <div className="actions">
        {buttons.map(([label, action, available]) => (
          <button
            key={label}
            type="button"
            className="button button-secondary"
            disabled={!available || busy !== null}
            onClick={action}
          >
            {label}
          </button>
        ))}
      </div>
      {result && (
        <p className="result" data-testid="send-result">
          {result.label}: <code>{result.value}</code>
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="send-error">
          {error}
        </p>
      )}
    </div>
  )
}
