// @vitest-environment node
import { LatchkeyError, RELAY_SOLANA_DEVNET_CHAIN_ID } from '@latchkey/core'
import type { ConnectedEthereumExternalWallet, EIP1193Provider } from '@latchkey/core/external'
import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import { type Chain, createPublicClient, defineChain, http } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeRelay, startFakeRelay } from '../../../../core/src/test/fake-relay.ts'
import { bridgeOperations } from './bridge.ts'
import type { BridgeStep } from './request.ts'

// Bridging SOL from an external Ethereum wallet against real peers: Anvil as
// the origin chain (its first dev account, unlocked, is the wallet) and the
// local Relay look-alike answering the documented /quote and /requests/v2.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SOLANA_WALLET = 'FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH'
let anvil: AnvilNode
let relay: FakeRelay
let testnet: Chain
let mainnetLike: Chain

beforeAll(async () => {
  ;[anvil, relay] = await Promise.all([startAnvil(), startFakeRelay()])
  const rpcUrls = { default: { http: [anvil.rpcUrl] } }
  testnet = defineChain({ ...foundry, rpcUrls, testnet: true })
  // A mainnet on the same node: funded too, but never a source for a test cluster.
  mainnetLike = defineChain({ ...foundry, id: 1, name: 'Ethereum', rpcUrls })
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
  await relay?.close()
})
beforeEach(() => relay.failQuotes(null))

function anvilWallet(address = DEV_ACCOUNT, { refuse = false } = {}) {
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      if (refuse && method === 'eth_sendTransaction')
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
      const response = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
      })
      const answer = (await response.json()) as { result?: unknown; error?: { message: string } }
      if (answer.error) throw new Error(answer.error.message)
      return answer.result
    },
    on: () => undefined,
    removeListener: () => undefined,
  } as unknown as EIP1193Provider
  return {
    type: 'ethereum',
    address,
    chainId: `eip155:${foundry.id}`,
    connectedAt: 0,
    walletClientType: 'anvil',
    connectorType: 'injected',
    imported: false,
    meta: { name: 'Anvil', icon: null, id: 'anvil' },
    disconnect: async () => undefined,
    getEthereumProvider: () => provider,
    switchChain: async () => undefined,
  } as ConnectedEthereumExternalWallet
}

const bridge = (clusterName = 'devnet') =>
  bridgeOperations({
    recipient: SOLANA_WALLET,
    clusterName,
    bridge: { api_url: `${relay.url}/mainnet`, testnet_api_url: relay.url },
    chains: [mainnetLike, testnet],
  })

async function failure(promise: Promise<unknown>): Promise<LatchkeyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof LatchkeyError)) throw new Error(`expected a LatchkeyError, got ${error}`)
  return error
}

/** The deposit's hash: the last transaction Anvil mined. */
async function lastHash(): Promise<string> {
  const client = createPublicClient({ chain: testnet, transport: http() })
  const block = await client.getBlock({ blockTag: 'latest' })
  return block.transactions.at(-1) as string
}

describe('bridging SOL from an Ethereum wallet (spec 03 "Solana bridge-funding")', () => {
  it('quotes only the funded testnet chains for a test cluster, exact output in lamports', async () => {
    const before = relay.quotes.length
    const options = await bridge().options(anvilWallet(), '1.5')
    expect(options.map((o) => o.chainName)).toEqual(['Foundry'])
    expect(options[0]?.balance).toMatch(/ ETH$/)
    expect(relay.quotes.slice(before)).toEqual([
      expect.objectContaining({
        user: DEV_ACCOUNT,
        recipient: SOLANA_WALLET,
        originChainId: foundry.id,
        destinationChainId: RELAY_SOLANA_DEVNET_CHAIN_ID,
        amount: '1500000000',
        tradeType: 'EXACT_OUTPUT',
      }),
    ])
  })

  it('deposits on the chosen chain and follows the bridge to success', async () => {
    const operations = bridge()
    const wallet = anvilWallet()
    const [option] = await operations.options(wallet, '0.5')
    if (!option) throw new Error('no option')
    const steps: BridgeStep[] = []
    let deposited = ''
    await operations.send(wallet, option, (step, hash) => {
      steps.push(step)
      // Settled before the first read: the test waits on no poll interval.
      if (step === 'submitted' && hash) {
        deposited = hash
        relay.setStatuses(hash, ['success'])
      }
    })
    expect(steps).toEqual(['confirm', 'submitted', 'bridging'])
    const hash = await lastHash()
    expect(deposited).toBe(hash)
    const client = createPublicClient({ chain: testnet, transport: http() })
    const deposit = await client.getTransaction({ hash: hash as `0x${string}` })
    expect(deposit.from.toLowerCase()).toBe(DEV_ACCOUNT.toLowerCase())
    expect(deposit.input).toBe('0x58109c')
    expect(relay.statusReads).toContain(hash)
  })

  it("a refund is BRIDGE_FAILED ('…Funds will be refunded on your wallet.') with the refund status link", async () => {
    const operations = bridge()
    const wallet = anvilWallet()
    const [option] = await operations.options(wallet, '0.25')
    if (!option) throw new Error('no option')
    const error = await failure(
      operations.send(wallet, option, (step, hash) => {
        if (step === 'submitted' && hash) relay.setStatuses(hash, ['refund'])
      }),
    )
    expect(error.code).toBe('BRIDGE_FAILED')
    expect(error.message).toBe(
      'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.',
    )
    expect((error.details as { refundUrl: string }).refundUrl).toMatch(/^https:\/\/.*relay\.link\//)
  })

  it('a wallet without funds on any compatible chain is BRIDGE_INSUFFICIENT_BALANCE', async () => {
    const empty = anvilWallet('0x000000000000000000000000000000000000dEaD')
    expect((await failure(bridge().options(empty, '1'))).code).toBe('BRIDGE_INSUFFICIENT_BALANCE')
  })

  it("quotes the bridge refuses are 'Unable to fetch quotes for bridging'", async () => {
    relay.failQuotes({ status: 400, message: 'No routes found', errorCode: 'NO_SWAP_ROUTES_FOUND' })
    const error = await failure(bridge().options(anvilWallet(), '1'))
    expect(error.code).toBe('BRIDGE_QUOTE_FAILED')
    expect(error.message).toBe('Unable to fetch quotes for bridging')
  })

  it("the user's no to the deposit is FUNDING_USER_REJECTED", async () => {
    const operations = bridge()
    const [option] = await operations.options(anvilWallet(), '0.1')
    if (!option) throw new Error('no option')
    const error = await failure(
      operations.send(anvilWallet(DEV_ACCOUNT, { refuse: true }), option, () => undefined),
    )
    expect(error.code).toBe('FUNDING_USER_REJECTED')
  })
})
