// @vitest-environment node
import { SignClient } from '@walletconnect/sign-client'
import { mainnet } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import {
  memoryWalletConnectStorage,
  startWalletConnectRelay,
  type WalletConnectRelay,
} from '../../test/walletconnect-relay.ts'
import { createWalletConnectProvider, type WalletConnectConnection } from '../walletconnect.ts'
import { SESSION_KEY } from './session-store.ts'
import { memoryStorage, type WalletConnectStorage } from './storage.ts'

// Our dapp client's session life against the real @walletconnect/sign-client
// wallet on the local relay: restored after a reload from storage alone,
// ended from either side, deaf to altered messages.

process.env.DISABLE_GLOBAL_CORE = 'true'

const ADDRESS = '0x000000000000000000000000000000000000bEEF'
const OTHER = '0x000000000000000000000000000000000000cafE'
let relay: WalletConnectRelay
type Wallet = Awaited<ReturnType<typeof SignClient.init>>

async function startWallet() {
  const wallet = await SignClient.init({
    projectId: 'latchkey-test',
    relayUrl: relay.url,
    storage: memoryWalletConnectStorage(),
    telemetryEnabled: false,
    metadata: { name: 'Rainbow', description: 'Wallet', url: 'https://rainbow.me', icons: [] },
  })
  wallet.on('session_proposal', ({ id, params }) =>
    wallet.approve({
      id,
      namespaces: {
        eip155: {
          chains: ['eip155:1'],
          accounts: [`eip155:1:${ADDRESS}`],
          methods: params.optionalNamespaces.eip155?.methods ?? [],
          events: params.optionalNamespaces.eip155?.events ?? [],
        },
      },
    }),
  )
  wallet.on('session_request', ({ id, topic }) =>
    wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: '0xsigned' } }),
  )
  return wallet
}

function provider(wallet: Wallet, storage: WalletConnectStorage) {
  const chain = { ...mainnet, rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } }
  const onDisplayUri = vi.fn((uri: string) => void wallet.pair({ uri }))
  const connection = createWalletConnectProvider({
    projectId: 'latchkey-test',
    chains: [chain],
    defaultChain: chain,
    appName: 'Latchkey test',
    appLogoUrl: null,
    url: 'https://app.example',
    relayUrl: relay.url,
    storage,
    onDisplayUri,
  })
  return { connection, onDisplayUri }
}

/** Publishes `message` on `topic` from a connection of its own, as anyone on the relay could. */
async function publishRaw(topic: string, message: string) {
  const socket = new WebSocket(relay.url)
  await new Promise((resolve) => socket.once('open', resolve))
  const answered = new Promise((resolve) => socket.once('message', resolve))
  const params = { topic, message, ttl: 300, tag: 1108 }
  socket.send(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_publish', params }))
  await answered
  socket.close()
}

const next = <T>(wc: WalletConnectConnection, event: string) =>
  new Promise<T>((resolve) => wc.provider.on?.(event, resolve as never))

async function closeWallet(wallet: Wallet) {
  wallet.core.heartbeat.stop()
  await wallet.core.relayer.transportClose()
}

beforeAll(async () => {
  if (typeof globalThis.WebSocket === 'undefined') vi.stubGlobal('WebSocket', WebSocket)
  // The wallet's Verify API lookup is answered as for an unknown attestation; nothing else leaves.
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.hostname === '127.0.0.1') return realFetch(input, init)
    if (url.hostname === 'verify.walletconnect.org') return new Response(null, { status: 404 })
    throw new TypeError(`offline test: ${url.href}`)
  })
  relay = await startWalletConnectRelay()
})

afterAll(async () => {
  vi.unstubAllGlobals()
  await relay?.close()
  delete process.env.DISABLE_GLOBAL_CORE
})

describe('a session across a reload', () => {
  let wallet: Wallet
  const storage = memoryStorage()
  const open: WalletConnectConnection[] = []

  beforeAll(async () => {
    wallet = await startWallet()
  })
  afterAll(async () => {
    await Promise.all(open.map((wc) => wc.close?.()))
    await closeWallet(wallet)
  })

  it('a new client on the same storage has the accounts at once and reaches the wallet', async () => {
    const first = provider(wallet, storage)
    const before = await first.connection
    open.push(before)
    expect(await before.provider.request({ method: 'eth_requestAccounts' })).toEqual([ADDRESS])
    await before.close?.()

    const reloaded = provider(wallet, storage)
    const after = await reloaded.connection
    open.push(after)
    expect(await after.provider.request({ method: 'eth_accounts' })).toEqual([ADDRESS])
    expect(after.walletSlug()).toBe('rainbow')
    expect(reloaded.onDisplayUri).not.toHaveBeenCalled()
    // Same keys, topic subscribed again: a request goes through and is answered.
    expect(
      await after.provider.request({ method: 'personal_sign', params: ['0x6869', ADDRESS] }),
    ).toBe('0xsigned')
    // The wallet's ping is answered on the restored session.
    const [topic] = wallet.session.keys
    await wallet.ping({ topic: topic as string })
  })

  it("an altered message on the session topic is dropped; the wallet's next event still arrives", async () => {
    const wc = open.at(-1) as WalletConnectConnection
    const [topic] = wallet.session.keys as [string]
    const sealed = await wallet.core.crypto.encode(topic, {
      id: 1,
      jsonrpc: '2.0',
      method: 'wc_sessionDelete',
      params: { code: 6000, message: 'forged' },
    })
    const bytes = Buffer.from(sealed, 'base64')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1
    await publishRaw(topic, bytes.toString('base64'))
    await publishRaw(topic, Buffer.from('not an envelope').toString('base64'))

    const changed = next<string[]>(wc, 'accountsChanged')
    await wallet.emit({
      topic,
      event: { name: 'accountsChanged', data: [`eip155:1:${OTHER}`] },
      chainId: 'eip155:1',
    })
    expect(await changed).toEqual([OTHER])
    expect(await wc.provider.request({ method: 'eth_accounts' })).toEqual([ADDRESS])
  })

  it('wc_sessionUpdate from the wallet changes the accounts; wc_sessionExtend is acknowledged', async () => {
    const wc = open.at(-1) as WalletConnectConnection
    const [topic] = wallet.session.keys as [string]
    const changed = next<string[]>(wc, 'accountsChanged')
    const namespaces = wallet.session.get(topic).namespaces
    const eip155 = namespaces.eip155 as NonNullable<typeof namespaces.eip155>
    const { acknowledged } = await wallet.update({
      topic,
      namespaces: { eip155: { ...eip155, accounts: [`eip155:1:${OTHER}`] } },
    })
    await acknowledged()
    expect(await changed).toEqual([OTHER])
    const extended = await wallet.extend({ topic })
    await extended.acknowledged()
    const stored = JSON.parse(String(await storage.getItem(SESSION_KEY))) as {
      expiry: number
    }
    expect(Math.abs(stored.expiry - wallet.session.get(topic).expiry)).toBeLessThan(60)
  })

  it('after the relay connection drops, the client reconnects and gets what the wallet sent meanwhile', async () => {
    const wc = open.at(-1) as WalletConnectConnection
    const [topic] = wallet.session.keys as [string]
    const changed = next<string[]>(wc, 'accountsChanged')
    relay.dropConnections((url) => url.includes('js-latchkey'))
    await wallet.emit({
      topic,
      event: { name: 'accountsChanged', data: [`eip155:1:${ADDRESS}`] },
      chainId: 'eip155:1',
    })
    expect(await changed).toEqual([ADDRESS])
    expect(await wc.provider.request({ method: 'personal_sign', params: ['0x6869', OTHER] })).toBe(
      '0xsigned',
    )
  })

  it("the wallet's wc_sessionDelete reaches the provider as disconnect (4900) and clears the storage", async () => {
    const wc = open.at(-1) as WalletConnectConnection
    const disconnected = next<{ code: number }>(wc, 'disconnect')
    const [topic] = wallet.session.keys as [string]
    await wallet.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    expect(await disconnected).toMatchObject({ code: 4900 })
    expect(await wc.provider.request({ method: 'eth_accounts' })).toEqual([])
    const again = provider(wallet, storage)
    const restored = await again.connection
    open.push(restored)
    expect(await restored.provider.request({ method: 'eth_accounts' })).toEqual([])
  })
})

describe('the dapp ending the session', () => {
  it('disconnect() sends wc_sessionDelete: the wallet drops the session', async () => {
    const wallet = await startWallet()
    const { connection } = provider(wallet, memoryStorage())
    const wc = await connection
    try {
      await wc.provider.request({ method: 'eth_requestAccounts' })
      const deleted = new Promise((resolve) => wallet.on('session_delete', resolve))
      await wc.disconnect()
      expect(await deleted).toMatchObject({ topic: expect.any(String) })
      expect(await wc.provider.request({ method: 'eth_accounts' })).toEqual([])
    } finally {
      await wc.close?.()
      await closeWallet(wallet)
    }
  })
})
