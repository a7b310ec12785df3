import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryStorage } from '../storage.ts'
import {
  connectionsKey,
  create,
  fakeEthereumWallet,
  fakeSolanaWallet,
  installEthereum,
  installSolana,
  resetExternalWalletFakes,
  SOL_ADDRESS,
  storedRecords,
  trackConnector,
  VITALIK_CHECKSUMMED,
} from '../test/external-wallets.ts'
import type { StoredConnection } from './types.ts'

// The manager: SDK connectors (WalletConnect, Coinbase Wallet) and restore()
// after a reload. The SDK-backed connectors are loaded with import(); fakes
// stand in for them.
const sdk = vi.hoisted(() => ({
  coinbase: null as null | { provider: unknown; disconnect: () => Promise<void> },
  walletConnect: null as null | {
    provider: unknown
    slug: string | null
    uri: string
    disconnect: () => Promise<void>
  },
}))
vi.mock('./coinbase.ts', () => ({
  createCoinbaseProvider: vi.fn(async () => ({
    provider: sdk.coinbase?.provider,
    walletSlug: () => 'coinbase_wallet',
    disconnect: () => sdk.coinbase?.disconnect() ?? Promise.resolve(),
  })),
}))
vi.mock('./walletconnect.ts', () => ({
  createWalletConnectProvider: vi.fn(async (options: { onDisplayUri?(uri: string): void }) => {
    options.onDisplayUri?.(sdk.walletConnect?.uri ?? '')
    return {
      provider: sdk.walletConnect?.provider,
      walletSlug: () => sdk.walletConnect?.slug ?? null,
      disconnect: () => sdk.walletConnect?.disconnect() ?? Promise.resolve(),
    }
  }),
}))

afterEach(() => {
  resetExternalWalletFakes()
  sdk.coinbase = null
  sdk.walletConnect = null
})

describe('restore() after a reload', () => {
  it('reconnects silently with eth_accounts and keeps connectedAt', async () => {
    const fake = fakeEthereumWallet()
    const key = installEthereum(fake)
    const storage = createMemoryStorage()
    const first = create({ storage, now: () => 1000 }).wallets
    await first.connect(key, 'ethereum')
    first.destroy()
    fake.request.mockClear()

    const { wallets } = create({ storage, now: () => 5000 })
    expect(wallets.getState().wallets).toEqual([])
    await wallets.restore()
    expect(fake.methods()).toEqual(['eth_accounts', 'eth_chainId'])
    expect(wallets.getState().wallets).toEqual([
      expect.objectContaining({
        address: VITALIK_CHECKSUMMED,
        connectedAt: 1000,
        connectorType: 'injected',
        walletClientType: 'metamask',
      }),
    ])
    expect(wallets.getState().connectors[key]).toBe('connected')
    expect(storedRecords(storage)?.[0]?.connectedAt).toBe(1000)
    expect(wallets.recent()).toEqual({ walletClientType: 'metamask', chainType: 'ethereum' })
  })

  it('forgets a wallet whose eth_accounts is empty (the site lost its permission)', async () => {
    const fake = fakeEthereumWallet()
    const key = installEthereum(fake)
    const storage = createMemoryStorage()
    const first = create({ storage }).wallets
    await first.connect(key, 'ethereum')
    first.destroy()
    fake.wallet.authorized = false
    fake.request.mockClear()

    vi.useFakeTimers()
    try {
      const { wallets } = create({ storage })
      const restored = wallets.restore()
      // Spec 01 §9: 10 account lookups, 500 ms apart, before giving up.
      await vi.advanceTimersByTimeAsync(9 * 500)
      await restored
      expect(fake.methods()).toEqual(Array(10).fill('eth_accounts'))
      expect(wallets.getState().wallets).toEqual([])
      expect(storedRecords(storage)).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('forgets a wallet that is no longer in the page (after the detection timeout)', async () => {
    vi.useFakeTimers()
    try {
      const storage = createMemoryStorage()
      const record: StoredConnection = {
        key: 'eip6963:gone',
        address: VITALIK_CHECKSUMMED,
        chainType: 'ethereum',
        connectorType: 'injected',
        walletClientType: 'metamask',
        connectedAt: 1,
      }
      storage.set(connectionsKey, JSON.stringify([record]))
      const { wallets } = create({ storage })
      const restored = wallets.restore()
      await vi.advanceTimersByTimeAsync(3000)
      await restored
      expect(wallets.getState().wallets).toEqual([])
      expect(storedRecords(storage)).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('ignores unreadable stored records', async () => {
    const storage = createMemoryStorage()
    storage.set(connectionsKey, '{not json')
    const { wallets } = create({ storage })
    await expect(wallets.restore()).resolves.toBeUndefined()
    expect(wallets.getState().wallets).toEqual([])
  })

  it('reconnects a Solana wallet silently and keeps connectedAt', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const storage = createMemoryStorage()
    const first = create({ storage, now: () => 1000 }).wallets
    await first.connect(key, 'solana')
    first.destroy()
    fake.connect.mockClear()

    const { wallets } = create({ storage, now: () => 5000 })
    await wallets.restore()
    expect(fake.connect).toHaveBeenCalledWith({ silent: true })
    expect(wallets.getState().wallets).toEqual([
      expect.objectContaining({ type: 'solana', address: SOL_ADDRESS, connectedAt: 1000 }),
    ])
  })
})

describe('connect (SDK connectors)', () => {
  it('Coinbase Wallet: created → initialized → connected, then disconnect() asks the SDK', async () => {
    const fake = fakeEthereumWallet()
    const sdkDisconnect = vi.fn(async () => {})
    sdk.coinbase = { provider: fake.provider, disconnect: sdkDisconnect }
    const { wallets, storage } = create()
    const states = trackConnector(wallets, 'coinbase_wallet')
    const wallet = await wallets.connect('coinbase_wallet', 'ethereum')
    expect(wallet).toMatchObject({
      address: VITALIK_CHECKSUMMED,
      connectorType: 'coinbase_wallet',
      walletClientType: 'coinbase_wallet',
      meta: { id: 'coinbase_wallet', name: 'Coinbase Wallet' },
    })
    await wallet.disconnect()
    expect(sdkDisconnect).toHaveBeenCalled()
    expect(states).toEqual([undefined, 'created', 'initialized', 'connected', 'disconnected'])
    expect(storedRecords(storage)).toBeNull()
  })

  it("WalletConnect: reports the pairing URI and names the wallet from the session's peer", async () => {
    const fake = fakeEthereumWallet()
    sdk.walletConnect = {
      provider: fake.provider,
      slug: null,
      uri: 'wc:abc@2',
      disconnect: async () => {},
    }
    // As with the SDK, the session (and its peer) exists once the connect request is approved.
    const answer = fake.request.getMockImplementation()
    fake.request.mockImplementation(async (args) => {
      if (args.method === 'eth_requestAccounts' && sdk.walletConnect)
        sdk.walletConnect.slug = 'metamask'
      return answer?.(args) ?? null
    })
    const { wallets } = create({
      walletConnectProjectId: 'project-1',
      rpcTimeoutMsByWallet: { metamask: 60_000 },
    })
    const onDisplayUri = vi.fn()
    const wallet = await wallets.connect('wallet_connect', 'ethereum', { onDisplayUri })
    expect(onDisplayUri).toHaveBeenCalledWith('wc:abc@2')
    expect(wallet).toMatchObject({
      connectorType: 'wallet_connect_v2',
      walletClientType: 'metamask',
      rpcTimeoutMs: 60_000,
      meta: { id: 'wallet_connect' },
    })
  })

  it('WalletConnect without a project id gives WALLET_NOT_FOUND_EXTERNAL', async () => {
    const { wallets } = create()
    await expect(wallets.connect('wallet_connect', 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
    expect(wallets.getState().connectors.wallet_connect).toBe('disconnected')
  })

  it('restore() reconnects a Coinbase Wallet connection silently through the SDK', async () => {
    const fake = fakeEthereumWallet()
    sdk.coinbase = { provider: fake.provider, disconnect: async () => {} }
    const storage = createMemoryStorage()
    const first = create({ storage, now: () => 1000 }).wallets
    await first.connect('coinbase_wallet', 'ethereum')
    first.destroy()
    fake.request.mockClear()
    const { wallets } = create({ storage, now: () => 5000 })
    await wallets.restore()
    expect(fake.methods()).toEqual(['eth_accounts', 'eth_chainId'])
    expect(wallets.getState().wallets).toEqual([
      expect.objectContaining({ connectorType: 'coinbase_wallet', connectedAt: 1000 }),
    ])
  })
})
