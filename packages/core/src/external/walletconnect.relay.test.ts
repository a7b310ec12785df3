// @vitest-environment node
import { ANVIL_DEV_KEY, type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import { SignClient } from '@walletconnect/sign-client'
import {
  createWalletClient,
  type Hex,
  http,
  parseEther,
  parseSignature,
  type TypedDataDefinition,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { base, mainnet } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import {
  memoryWalletConnectStorage,
  startWalletConnectRelay,
  type WalletConnectRelay,
} from '../test/walletconnect-relay.ts'
import { memoryStorage } from './walletconnect/storage.ts'
import { createWalletConnectProvider, type WalletConnectConnection } from './walletconnect.ts'

// Our WalletConnect provider (the dapp) and @walletconnect/sign-client as the
// wallet app, both on a local relay; the wallet signs with a viem account and
// sends transactions to Anvil, which also answers the dapp's read-only calls.

// Two WalletConnect clients in one process: without this they would share one core (one key pair).
process.env.DISABLE_GLOBAL_CORE = 'true'

const account = privateKeyToAccount(ANVIL_DEV_KEY)
const UNAPPROVED_CHAIN = 10
const outsideRequests: string[] = []
let relay: WalletConnectRelay
let anvil: AnvilNode

type Wallet = Awaited<ReturnType<typeof SignClient.init>>
type RequestEvent = Parameters<Parameters<Wallet['on']>[1]>[0] & {
  id: number
  topic: string
  params: { request: { method: string; params: unknown[] }; chainId: string }
}

/** The wallet app: approves proposals for mainnet and Base (or rejects them), answers requests. */
async function startWallet({ rejectProposals = false } = {}) {
  const wallet = await SignClient.init({
    projectId: 'latchkey-test',
    relayUrl: relay.url,
    storage: memoryWalletConnectStorage(),
    telemetryEnabled: false,
    metadata: { name: 'MetaMask', description: 'Wallet', url: 'https://metamask.io', icons: [] },
  })
  const state = { rejectRequests: false, requests: [] as string[] }
  const onChain = createWalletClient({ account, transport: http(anvil.rpcUrl) })
  wallet.on('session_proposal', async ({ id, params }) => {
    if (rejectProposals)
      return wallet.reject({ id, reason: { code: 5000, message: 'User rejected.' } })
    const chains = [`eip155:${mainnet.id}`, `eip155:${base.id}`]
    await wallet.approve({
      id,
      namespaces: {
        eip155: {
          chains,
          accounts: chains.map((c) => `${c}:${account.address}`),
          methods: params.optionalNamespaces.eip155?.methods ?? [],
          events: params.optionalNamespaces.eip155?.events ?? [],
        },
      },
    })
  })
  wallet.on('session_request', async (event) => {
    const { id, topic, params } = event as RequestEvent
    const { method, params: args } = params.request
    state.requests.push(`${method} ${params.chainId}`)
    const respond = (body: { result: unknown } | { error: { code: number; message: string } }) =>
      wallet.respond({ topic, response: { id, jsonrpc: '2.0', ...body } as never })
    if (state.rejectRequests) return respond({ error: { code: 5000, message: 'User rejected.' } })
    if (method === 'personal_sign')
      return respond({ result: await account.signMessage({ message: { raw: args[0] as Hex } }) })
    if (method === 'eth_signTypedData_v4')
      return respond({
        result: await account.signTypedData(JSON.parse(args[1] as string) as TypedDataDefinition),
      })
    if (method === 'eth_sendTransaction') {
      const tx = args[0] as { to: Hex; value: Hex }
      const chain = { ...mainnet, rpcUrls: { default: { http: [anvil.rpcUrl] } } }
      return respond({
        result: await onChain.sendTransaction({ chain, to: tx.to, value: BigInt(tx.value) }),
      })
    }
    return respond({ error: { code: 4200, message: `Unsupported method ${method}` } })
  })
  return { wallet, state }
}

/** Our provider, pairing with `wallet` through the URI it reports (what the QR code carries). */
function dapp(wallet: Wallet) {
  const onDisplayUri = vi.fn((uri: string) => void wallet.pair({ uri }))
  const chain = (c: typeof mainnet | typeof base) => ({
    ...c,
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
  const connection = createWalletConnectProvider({
    projectId: 'latchkey-test',
    chains: [chain(mainnet), chain(base)],
    defaultChain: chain(mainnet),
    appName: 'Latchkey test',
    appLogoUrl: null,
    url: 'https://app.example',
    relayUrl: relay.url,
    storage: memoryStorage(),
    onDisplayUri,
  })
  return { connection, onDisplayUri }
}

async function closeWallet(wallet: Wallet) {
  wallet.core.heartbeat.stop()
  await wallet.core.relayer.transportClose()
}

beforeAll(async () => {
  // Node 20 has no WebSocket global; WalletConnect's ESM build (what vitest
  // resolves) would fall back to require('ws'), which ESM does not have.
  if (typeof globalThis.WebSocket === 'undefined') vi.stubGlobal('WebSocket', WebSocket)
  // Nothing may leave the machine. The wallet's Verify API lookup of the dapp's
  // origin (verify.walletconnect.org) is answered as the service answers an
  // unknown attestation, 404; anything else outside 127.0.0.1 fails the test.
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.hostname === '127.0.0.1') return realFetch(input, init)
    outsideRequests.push(url.origin)
    if (url.hostname === 'verify.walletconnect.org') return new Response(null, { status: 404 })
    throw new TypeError(`offline test: ${url.href}`)
  })
  ;[relay, anvil] = await Promise.all([
    startWalletConnectRelay(),
    startAnvil({ chainId: mainnet.id }),
  ])
})

afterAll(async () => {
  vi.unstubAllGlobals()
  await Promise.all([relay?.close(), anvil?.stop()])
  delete process.env.DISABLE_GLOBAL_CORE
})

describe('WalletConnect through our sign client, on a local relay', () => {
  let wallet: Wallet
  let walletState: Awaited<ReturnType<typeof startWallet>>['state']
  let wc: WalletConnectConnection
  let onDisplayUri: ReturnType<typeof dapp>['onDisplayUri']

  beforeAll(async () => {
    ;({ wallet, state: walletState } = await startWallet())
    const started = dapp(wallet)
    onDisplayUri = started.onDisplayUri
    wc = await started.connection
  })

  afterAll(async () => {
    await wc?.close?.()
    if (wallet) await closeWallet(wallet)
  })

  it('pairs through the wc: URI and answers eth_requestAccounts with the approved account', async () => {
    expect(wc.walletSlug()).toBeNull()
    const accounts = await wc.provider.request({ method: 'eth_requestAccounts' })
    expect(onDisplayUri).toHaveBeenCalledOnce()
    expect(onDisplayUri.mock.calls[0]?.[0]).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    expect(accounts).toEqual([account.address])
    expect(await wc.provider.request({ method: 'eth_accounts' })).toEqual([account.address])
    expect(await wc.provider.request({ method: 'eth_chainId' })).toBe('0x1')
    expect(wc.walletSlug()).toBe('metamask')
    expect(relay.calls).toEqual(expect.arrayContaining(['wc_proposeSession', 'wc_approveSession']))
  })

  it('personal_sign: the wallet signs and viem verifies the signature', async () => {
    const message = 'Sign in to Latchkey test'
    const hexMessage = `0x${Buffer.from(message).toString('hex')}`
    const signature = (await wc.provider.request({
      method: 'personal_sign',
      params: [hexMessage, account.address],
    })) as Hex
    expect(await verifyMessage({ address: account.address, message, signature })).toBe(true)
  })

  it('eth_signTypedData_v4: the wallet signs and viem verifies the signature', async () => {
    const typedData = {
      domain: { name: 'Latchkey', version: '1', chainId: 1 },
      types: { Login: [{ name: 'user', type: 'address' }] },
      primaryType: 'Login',
      message: { user: account.address },
    } as const
    const signature = (await wc.provider.request({
      method: 'eth_signTypedData_v4',
      params: [account.address, JSON.stringify(typedData)],
    })) as Hex
    expect(parseSignature(signature).r).toMatch(/^0x/)
    expect(await verifyTypedData({ address: account.address, ...typedData, signature })).toBe(true)
  })

  it('read-only calls go to the chain RPC; eth_sendTransaction to the wallet', async () => {
    const balance = await wc.provider.request({
      method: 'eth_getBalance',
      params: [account.address, 'latest'],
    })
    expect(BigInt(balance as string)).toBeGreaterThan(parseEther('1'))
    const to = '0x000000000000000000000000000000000000dEaD'
    const hash = await wc.provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: account.address, to, value: '0x1' }],
    })
    const receipt = (await wc.provider.request({
      method: 'eth_getTransactionReceipt',
      params: [hash],
    })) as { status: string }
    expect(receipt.status).toBe('0x1')
    expect(walletState.requests).toEqual([
      'personal_sign eip155:1',
      'eth_signTypedData_v4 eip155:1',
      'eth_sendTransaction eip155:1',
    ])
  })

  it('wallet_switchEthereumChain to Base emits chainChanged; requests then go to Base', async () => {
    const changed = new Promise((resolve) => wc.provider.on?.('chainChanged', resolve as never))
    await wc.provider.request({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x2105' }],
    })
    expect(await changed).toBe('0x2105')
    expect(await wc.provider.request({ method: 'eth_chainId' })).toBe('0x2105')
    await wc.provider.request({ method: 'personal_sign', params: ['0x6869', account.address] })
    expect(walletState.requests.at(-1)).toBe('personal_sign eip155:8453')
  })

  it('a chain outside the session fails with 4902', async () => {
    await expect(
      wc.provider.request({
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: `0x${UNAPPROVED_CHAIN.toString(16)}` }],
      }),
    ).rejects.toMatchObject({ code: 4902 })
  })

  it("the wallet's rejection (WalletConnect's 5000) is 4001", async () => {
    walletState.rejectRequests = true
    await expect(
      wc.provider.request({ method: 'personal_sign', params: ['0x6869', account.address] }),
    ).rejects.toMatchObject({ code: 4001 })
    walletState.rejectRequests = false
  })

  it('the wallet ending the session emits disconnect and empties eth_accounts', async () => {
    const disconnected = new Promise((resolve) => wc.provider.on?.('disconnect', resolve as never))
    const [topic] = wallet.session.keys
    await wallet.disconnect({
      topic: topic as string,
      reason: { code: 6000, message: 'User disconnected.' },
    })
    expect(await disconnected).toMatchObject({ code: 4900 })
    expect(await wc.provider.request({ method: 'eth_accounts' })).toEqual([])
  })
})

describe('a wallet that rejects the session proposal', () => {
  it('eth_requestAccounts fails with 4001', async () => {
    const { wallet } = await startWallet({ rejectProposals: true })
    const { connection } = dapp(wallet)
    const wc = await connection
    try {
      await expect(wc.provider.request({ method: 'eth_requestAccounts' })).rejects.toMatchObject({
        code: 4001,
      })
      expect(await wc.provider.request({ method: 'eth_accounts' })).toEqual([])
    } finally {
      await wc.close?.()
      await closeWallet(wallet)
    }
  })
})

describe('offline', () => {
  it('nothing but the Verify API lookup was fetched outside 127.0.0.1', () => {
    expect(
      outsideRequests.filter((origin) => origin !== 'https://verify.walletconnect.org'),
    ).toEqual([])
  })
})
