// @vitest-environment node
import {
  type LatchkeyError,
  RELAY_SOLANA_CHAIN_ID,
  RELAY_SOLANA_DEVNET_CHAIN_ID,
} from '@latchkey/core'
import { type ConnectedSolanaExternalWallet, withWalletTimeout } from '@latchkey/core/external'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import {
  generateKeyPairSigner,
  getTransactionDecoder,
  getTransactionEncoder,
  type KeyPairSigner,
  partiallySignTransaction,
} from '@solana/kit'
import { type Chain, defineChain } from 'viem'
import { base, foundry } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type FakeRelay, startFakeRelay } from '../../../../core/src/test/fake-relay.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { bridgeFromSolanaOperations, bridgeSourceCluster } from './bridge-solana.ts'
import { fundWalletOperations } from './operations.ts'
import type { BridgeStep } from './request.ts'

// Bridging from an external Solana wallet to an Ethereum wallet against real
// peers: the LiteSVM ledger as the Solana cluster (the wallet signs with a
// real key pair) and the local Relay look-alike answering the documented
// /quote (Solana instructions for a Solana origin) and /requests/v2.
const RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const DEPOSIT_ADDRESS = 'F7p3dFrjRTbtRp8FRF6qHLomXbKRBzpvBLjtQcfcgmNe'
const testnet = defineChain({ ...foundry, testnet: true })
let ledger: SolanaLedger
let relay: FakeRelay

beforeAll(async () => {
  ;[ledger, relay] = await Promise.all([startSolanaLedger(), startFakeRelay()])
}, 60_000)
afterAll(async () => {
  await ledger?.stop()
  await relay?.close()
})
beforeEach(() => relay.failQuotes(null))

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
  return {
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
}

const operations = () => {
  const ops = bridgeFromSolanaOperations({
    recipient: RECIPIENT,
    chain: testnet,
    bridge: { api_url: 'http://127.0.0.1:1', testnet_api_url: relay.url },
    clusters: [
      { name: 'mainnet-beta', rpcUrl: 'http://127.0.0.1:1' },
      { name: 'devnet', rpcUrl: ledger.rpcUrl },
    ],
  })
  if (!ops) throw new Error('no bridge')
  return ops
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as LatchkeyError,
  )

// The fake prices the deposit in lamports of the amount asked (it ignores the trade type):
// 0.000001 ETH asked = 10^12 wei = a deposit of 10^12 lamports (1000 SOL).
const AMOUNT = '0.000001'
const DEPOSIT = 1_000_000_000_000n

describe('Transfer from another network: Solana → Ethereum (LiteSVM ledger, local Relay)', () => {
  it('testnets bridge from a test cluster, mainnets from mainnet-beta; none, no bridge', () => {
    const clusters = [
      { name: 'mainnet-beta', rpcUrl: 'https://a' },
      { name: 'devnet', rpcUrl: 'https://b' },
    ]
    expect(bridgeSourceCluster(testnet, clusters)?.name).toBe('devnet')
    expect(bridgeSourceCluster(base, clusters)?.name).toBe('mainnet-beta')
    const ops = bridgeFromSolanaOperations({
      recipient: RECIPIENT,
      chain: base,
      bridge: { api_url: relay.url, testnet_api_url: relay.url },
      clusters: [{ name: 'devnet', rpcUrl: 'https://b' }],
    })
    expect(ops).toBeUndefined()
  })

  it('quotes the amount asked as exact output, deposits on Solana and follows the bridge to success', async () => {
    const signer = await generateKeyPairSigner()
    ledger.airdrop(signer.address, DEPOSIT + 1_000_000_000n)
    const wallet = externalWallet(signer)
    const ops = operations()
    const [option, ...more] = await ops.options(wallet, AMOUNT)
    expect(more).toEqual([])
    expect(option).toEqual({
      chainId: RELAY_SOLANA_DEVNET_CHAIN_ID,
      chainName: 'Devnet',
      balance: '1001 SOL',
      pay: expect.stringMatching(/ SOL$/),
    })
    expect(relay.quotes.at(-1)).toMatchObject({
      user: signer.address,
      recipient: RECIPIENT,
      originChainId: RELAY_SOLANA_DEVNET_CHAIN_ID,
      destinationChainId: testnet.id,
      originCurrency: '11111111111111111111111111111111',
      destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: DEPOSIT.toString(),
      tradeType: 'EXACT_OUTPUT',
    })
    const steps: [BridgeStep, string | undefined][] = []
    await ops.send(wallet, option as NonNullable<typeof option>, (step, signature) => {
      steps.push([step, signature])
      // Relay learns of the deposit once it is sent.
      if (step === 'submitted' && signature) relay.setStatuses(signature, ['success'])
    })
    const signature = steps[1]?.[1]
    expect(steps).toEqual([
      ['confirm', undefined],
      ['submitted', signature],
      ['bridging', signature],
    ])
    expect(relay.statusReads.at(-1)).toBe(signature)
    expect(ledger.svm.getBalance(DEPOSIT_ADDRESS as never)).toBe(DEPOSIT)
  })

  it('a refunded bridge is BRIDGE_FAILED with the refund link', async () => {
    const signer = await generateKeyPairSigner()
    ledger.airdrop(signer.address, DEPOSIT + 1_000_000_000n)
    const wallet = externalWallet(signer)
    const ops = operations()
    const [option] = await ops.options(wallet, AMOUNT)
    const error = await failure(
      ops.send(wallet, option as NonNullable<typeof option>, (step, signature) => {
        if (step === 'submitted' && signature) relay.setStatuses(signature, ['refund'])
      }),
    )
    expect(error?.code).toBe('BRIDGE_FAILED')
    expect(error?.userMessage.title).toBe(
      'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.',
    )
    const { refundUrl } = (error?.details ?? {}) as { refundUrl?: string }
    expect(refundUrl).toMatch(/^https:\/\/testnets\.relay\.link\/transaction\/0x/)
  })

  it('no SOL: BRIDGE_INSUFFICIENT_BALANCE before any quote; too little for the deposit: before the wallet is asked', async () => {
    const empty = externalWallet(await generateKeyPairSigner())
    const quotes = relay.quotes.length
    expect((await failure(operations().options(empty, AMOUNT)))?.code).toBe(
      'BRIDGE_INSUFFICIENT_BALANCE',
    )
    expect(relay.quotes.length).toBe(quotes)
    const signer = await generateKeyPairSigner()
    ledger.airdrop(signer.address, 1_000_000_000n)
    const poor = externalWallet(signer)
    const ops = operations()
    const [option] = await ops.options(poor, AMOUNT)
    const error = await failure(
      ops.send(poor, option as NonNullable<typeof option>, () => undefined),
    )
    expect(error?.code).toBe('BRIDGE_INSUFFICIENT_BALANCE')
    expect(poor.signTransaction).not.toHaveBeenCalled()
  })

  it("no quote: 'Unable to fetch quotes for bridging' with Relay's message; the user's no is a rejection", async () => {
    const signer = await generateKeyPairSigner()
    ledger.airdrop(signer.address, DEPOSIT + 1_000_000_000n)
    relay.failQuotes({ status: 400, message: 'No routes found', errorCode: 'NO_SWAP_ROUTES_FOUND' })
    const quoteError = await failure(operations().options(externalWallet(signer), AMOUNT))
    expect(quoteError?.code).toBe('BRIDGE_QUOTE_FAILED')
    expect(quoteError?.shortMessage).toBe('No routes found')
    relay.failQuotes(null)
    const refusing = externalWallet(signer, { refuse: true })
    const ops = operations()
    const [option] = await ops.options(refusing, AMOUNT)
    const error = await failure(
      ops.send(refusing, option as NonNullable<typeof option>, () => undefined),
    )
    expect(error?.code).toBe('FUNDING_USER_REJECTED')
    expect(ledger.svm.getBalance(signer.address as never)).toBe(DEPOSIT + 1_000_000_000n)
  })

  it('mainnet chains quote against Relay’s Solana mainnet id', async () => {
    const signer = await generateKeyPairSigner()
    ledger.airdrop(signer.address, 1_000_000_000n)
    const ops = bridgeFromSolanaOperations({
      recipient: RECIPIENT,
      chain: base,
      bridge: { api_url: relay.url, testnet_api_url: 'http://127.0.0.1:1' },
      clusters: [{ name: 'mainnet-beta', rpcUrl: ledger.rpcUrl }],
    })
    await ops?.options(externalWallet(signer), '0.000000001')
    expect(relay.quotes.at(-1)).toMatchObject({
      originChainId: RELAY_SOLANA_CHAIN_ID,
      destinationChainId: base.id,
    })
  })
})

describe('the funding request offers Solana → Ethereum', () => {
  const config = (bridging: boolean): FundingConfig => ({
    options: [{ method: 'wallets', provider: null }],
    default_recommended_amount: '0.01',
    default_recommended_asset: 'native-currency',
    cross_chain_bridging_enabled: bridging,
    moonpay: null,
    bridge: { api_url: relay.url, testnet_api_url: relay.url },
  })
  const instance = {
    client: null,
    getUiState: () => ({
      hostConfig: { solanaClusters: [{ name: 'devnet', rpcUrl: ledger.rpcUrl }] },
      appConfig: null,
    }),
  } as unknown as LatchkeyInstance
  const offered = (asset: 'native-currency' | 'USDC', bridging: boolean, chain: Chain = testnet) =>
    'bridgeFromSolana' in
    fundWalletOperations(instance, {
      address: RECIPIENT,
      target: { chainType: 'ethereum', chain },
      asset,
      amount: '0.01',
      config: config(bridging),
    })

  it('for the native currency with bridging on and a matching cluster only', () => {
    expect(offered('native-currency', true)).toBe(true)
    expect(offered('native-currency', false)).toBe(false)
    expect(offered('USDC', true)).toBe(false)
    // A mainnet chain and only a test cluster: nothing to bridge from.
    expect(offered('native-currency', true, base)).toBe(false)
  })
})
