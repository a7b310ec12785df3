// @vitest-environment node
import { LatchkeyError } from '@latchkey/core'
import { type ConnectedSolanaExternalWallet, withWalletTimeout } from '@latchkey/core/external'
import { type SolanaLedger, startSolanaLedger, TOKEN_PROGRAM } from '@latchkey/server/test/solana'
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getTransactionDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
} from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { LatchkeyInstance } from '../../store.ts'
import { fundWalletOperations, readBalance } from './operations.ts'
import { transferFromSolanaWallet } from './transfer-solana.ts'

// Transfers from an external Solana wallet against the LiteSVM ledger: the
// wallet signs with a real key pair (as a Wallet Standard wallet does) and
// its "no" is the 4001 error a wallet throws, through the connector's
// translation (withWalletTimeout).
let ledger: SolanaLedger
beforeAll(async () => {
  ledger = await startSolanaLedger()
}, 60_000)
afterAll(() => ledger?.stop())

const SOL = { symbol: 'SOL', decimals: 9 }
const cluster = () => ({ name: 'devnet', rpcUrl: ledger.rpcUrl })

/** A connected external Solana wallet holding `signer`'s key; `refuse`: the user says no. */
function externalWallet(signer: KeyPairSigner, { refuse = false } = {}) {
  const signTransaction = vi.fn(async (wire: Uint8Array) =>
    withWalletTimeout(
      refuse
        ? Promise.reject(Object.assign(new Error('User rejected the request.'), { code: 4001 }))
        : partiallySignTransaction([signer.keyPair], getTransactionDecoder().decode(wire)).then(
            (signed) => new Uint8Array(getTransactionEncoder().encode(signed)),
          ),
    ),
  )
  const wallet = {
    type: 'solana',
    address: signer.address,
    chainId: null,
    connectedAt: 0,
    walletClientType: 'test_wallet',
    connectorType: 'solana_adapter',
    imported: false,
    meta: { name: 'Test Wallet', icon: null, id: 'test' },
    signMessage: async () => new Uint8Array(64),
    signTransaction,
    disconnect: async () => undefined,
  } satisfies ConnectedSolanaExternalWallet
  return { wallet, signTransaction }
}

const fresh = async (lamports = 0n) => {
  const signer = await generateKeyPairSigner()
  if (lamports > 0n) ledger.airdrop(signer.address, lamports)
  return signer
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as LatchkeyError,
  )

describe('Transfer from an external Solana wallet (LiteSVM ledger)', () => {
  it('SOL transfer lands: the funded wallet gains the amount; the payer pays it and the fee', async () => {
    const payer = await fresh(2_000_000_000n)
    const funded = await fresh()
    const { wallet } = externalWallet(payer)
    const submitted: string[] = []
    const signature = await transferFromSolanaWallet({
      rpcUrl: ledger.rpcUrl,
      wallet,
      to: funded.address,
      amount: '0.5',
      token: SOL,
      onSubmitted: (s) => submitted.push(s),
    })
    expect(submitted).toEqual([signature])
    const target = { chainType: 'solana', cluster: cluster() } as const
    expect(await readBalance(target, funded.address, SOL)).toBe(500_000_000n)
    const left = await readBalance(target, payer.address, SOL)
    expect(left).toBeLessThan(1_500_000_000n) // the fee too
    expect(left).toBeGreaterThan(1_499_000_000n)
  })

  it("USDC transfer creates the recipient's associated token account, then lands again into it", async () => {
    const payer = await fresh(1_000_000_000n)
    const funded = await fresh()
    const mint = ledger.createMint({ decimals: 6 })
    ledger.mintTo({ mint, owner: payer.address, amount: 25_000_000n })
    const usdc = { symbol: 'USDC', decimals: 6, address: mint }
    const { wallet } = externalWallet(payer)
    const target = { chainType: 'solana', cluster: cluster() } as const
    // The recipient has no token account yet: the idempotent instruction creates it.
    expect(await readBalance(target, funded.address, usdc)).toBe(0n)
    await transferFromSolanaWallet({
      rpcUrl: ledger.rpcUrl,
      wallet,
      to: funded.address,
      amount: '10',
      token: usdc,
    })
    // One token account, made by the Associated Token program (it only creates the owner's PDA).
    const rpc = createSolanaRpc(ledger.rpcUrl)
    const { value: accounts } = await rpc
      .getTokenAccountsByOwner(
        address(funded.address),
        { mint: address(mint) },
        { encoding: 'jsonParsed' },
      )
      .send()
    expect(accounts).toHaveLength(1)
    expect(accounts[0]?.account.owner).toBe(TOKEN_PROGRAM)
    expect(await readBalance(target, funded.address, usdc)).toBe(10_000_000n)
    // The account exists now: the same transaction shape works again.
    await transferFromSolanaWallet({
      rpcUrl: ledger.rpcUrl,
      wallet,
      to: funded.address,
      amount: '2.5',
      token: usdc,
    })
    expect(await readBalance(target, funded.address, usdc)).toBe(12_500_000n)
    expect(await readBalance(target, payer.address, usdc)).toBe(12_500_000n)
  })

  it("'Wallet {address} does not have enough funds.' before the wallet is asked (SOL, and USDC)", async () => {
    const payer = await fresh(100_000_000n)
    const funded = await fresh()
    const { wallet, signTransaction } = externalWallet(payer)
    const sol = await failure(
      transferFromSolanaWallet({
        rpcUrl: ledger.rpcUrl,
        wallet,
        to: funded.address,
        amount: '0.1', // all of it: nothing left for the fee
        token: SOL,
      }),
    )
    expect(sol?.code).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    expect(sol?.shortMessage).toBe(`Wallet ${payer.address} does not have enough funds.`)
    const mint = ledger.createMint({ decimals: 6 })
    ledger.mintTo({ mint, owner: payer.address, amount: 1_000_000n })
    const usdc = await failure(
      transferFromSolanaWallet({
        rpcUrl: ledger.rpcUrl,
        wallet,
        to: funded.address,
        amount: '1.5',
        token: { symbol: 'USDC', decimals: 6, address: mint },
      }),
    )
    expect(usdc?.code).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    // A wallet with no token account at all holds none.
    const empty = await fresh(1_000_000_000n)
    const none = await failure(
      transferFromSolanaWallet({
        rpcUrl: ledger.rpcUrl,
        wallet: externalWallet(empty).wallet,
        to: funded.address,
        amount: '1',
        token: { symbol: 'USDC', decimals: 6, address: mint },
      }),
    )
    expect(none?.code).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    expect(signTransaction).not.toHaveBeenCalled()
  })

  it("the user's no is 'Transaction was rejected by the user'; nothing moves", async () => {
    const payer = await fresh(1_000_000_000n)
    const funded = await fresh()
    const { wallet, signTransaction } = externalWallet(payer, { refuse: true })
    const error = await failure(
      transferFromSolanaWallet({
        rpcUrl: ledger.rpcUrl,
        wallet,
        to: funded.address,
        amount: '0.2',
        token: SOL,
      }),
    )
    expect(signTransaction).toHaveBeenCalledOnce()
    expect(error?.code).toBe('FUNDING_USER_REJECTED')
    expect(error?.userMessage.title).toBe('Transaction was rejected by the user')
    const target = { chainType: 'solana', cluster: cluster() } as const
    expect(await readBalance(target, funded.address, SOL)).toBe(0n)
  })

  it("the funding request's transfer sends from a Solana wallet on the request's cluster", async () => {
    const payer = await fresh(1_000_000_000n)
    const funded = await fresh()
    const target = { chainType: 'solana', cluster: cluster() } as const
    const ops = fundWalletOperations({ client: null } as unknown as LatchkeyInstance, {
      address: funded.address,
      target,
      asset: 'native-currency',
      amount: '0.3',
      config: null,
    })
    const token = await ops.token()
    await ops.transfer(externalWallet(payer).wallet, '0.3', token)
    expect(await readBalance(target, funded.address, token)).toBe(300_000_000n)
  })

  it('a wallet that cannot sign transactions is told so', async () => {
    const payer = await fresh(1_000_000_000n)
    const { signTransaction: _, ...wallet } = externalWallet(payer).wallet
    const error = await failure(
      transferFromSolanaWallet({
        rpcUrl: ledger.rpcUrl,
        wallet,
        to: (await fresh()).address,
        amount: '0.1',
        token: SOL,
      }),
    )
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error?.code).toBe('UNSUPPORTED_METHOD')
  })
})
