import { base, mainnet, optimism } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import {
  APP_ID,
  create,
  fakeEthereumWallet,
  installEthereum,
  OTHER,
  OTHER_CHECKSUMMED,
  resetExternalWalletFakes,
  storedRecords,
  trackConnector,
  VITALIK_CHECKSUMMED,
} from '../test/external-wallets.ts'
import { addChainParameters } from './chains.ts'
import type { ConnectedEthereumExternalWallet } from './types.ts'
import { hasStoredWalletConnections } from './wallet-store.ts'

afterEach(() => {
  resetExternalWalletFakes()
})

describe('connect (injected Ethereum wallet)', () => {
  it('connects: checksummed address, CAIP-2 chain, injected connector, stored record and recent()', async () => {
    const fake = fakeEthereumWallet({ chainId: 10 })
    const key = installEthereum(fake)
    const { wallets, storage } = create()
    expect(wallets.recent()).toBeNull()
    const wallet = (await wallets.connect(key, 'ethereum')) as ConnectedEthereumExternalWallet
    expect(fake.methods()).toEqual(['eth_requestAccounts', 'eth_chainId'])
    expect(wallet).toMatchObject({
      type: 'ethereum',
      address: VITALIK_CHECKSUMMED,
      chainId: 'eip155:10',
      connectorType: 'injected',
      walletClientType: 'metamask',
      imported: false,
      connectedAt: 1_700_000_000_000,
      meta: { name: 'MetaMask', icon: 'data:image/svg+xml,<svg/>', id: key },
    })
    expect(wallet.getEthereumProvider()).toBe(fake.provider)
    expect(wallets.getState().wallets).toEqual([wallet])
    expect(storedRecords(storage)).toEqual([
      {
        key,
        address: VITALIK_CHECKSUMMED,
        chainType: 'ethereum',
        connectorType: 'injected',
        walletClientType: 'metamask',
        connectedAt: 1_700_000_000_000,
      },
    ])
    expect(hasStoredWalletConnections(storage, APP_ID)).toBe(true)
    expect(wallets.recent()).toEqual({ walletClientType: 'metamask', chainType: 'ethereum' })
  })

  it('connector lifecycle: initialized on detection → connected → disconnected', async () => {
    const fake = fakeEthereumWallet()
    const key = installEthereum(fake)
    const { wallets, storage } = create()
    const states = trackConnector(wallets, key)
    const wallet = await wallets.connect(key, 'ethereum')
    await wallet.disconnect()
    expect(states).toEqual(['initialized', 'connected', 'disconnected'])
    expect(wallets.getState().wallets).toEqual([])
    expect(storedRecords(storage)).toBeNull()
    expect(hasStoredWalletConnections(storage, APP_ID)).toBe(false)
  })

  it('a user rejection (4001) gives WALLET_USER_REJECTED and leaves the connector disconnected', async () => {
    const fake = fakeEthereumWallet()
    fake.wallet.rejectWith = { code: 4001, message: 'User rejected the request.' }
    const key = installEthereum(fake)
    const { wallets, storage } = create()
    const error = await wallets.connect(key, 'ethereum').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error).toMatchObject({ code: 'WALLET_USER_REJECTED' })
    expect(wallets.getState().connectors[key]).toBe('disconnected')
    expect(wallets.getState().wallets).toEqual([])
    expect(storedRecords(storage)).toBeNull()
    expect(wallets.recent()).toBeNull()
  })

  it('a pending request (-32002) gives WALLET_REQUEST_PENDING', async () => {
    const fake = fakeEthereumWallet()
    fake.wallet.rejectWith = { code: -32002 }
    const key = installEthereum(fake)
    const { wallets } = create()
    await expect(wallets.connect(key, 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_REQUEST_PENDING',
    })
  })

  it("no accounts after 10 lookups gives WALLET_NO_ACCOUNTS ('Unable to retrieve accounts')", async () => {
    vi.useFakeTimers()
    try {
      const fake = fakeEthereumWallet({ accounts: [] })
      const key = installEthereum(fake)
      const { wallets } = create()
      const caught = wallets.connect(key, 'ethereum').catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(9 * 500)
      expect(await caught).toMatchObject({ code: 'WALLET_NO_ACCOUNTS' })
      expect(fake.methods()).toEqual(['eth_requestAccounts', ...Array(9).fill('eth_accounts')])
      expect(wallets.getState().connectors[key]).toBe('disconnected')
    } finally {
      vi.useRealTimers()
    }
  })

  it('an unknown key gives WALLET_NOT_FOUND_EXTERNAL', async () => {
    const { wallets } = create()
    await expect(wallets.connect('eip6963:nope', 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
    await expect(wallets.connect('install:rainbow', 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
  })

  it('a wallet that never answers times out with WALLET_REQUEST_TIMEOUT (rpcTimeoutMs)', async () => {
    vi.useFakeTimers()
    try {
      const fake = fakeEthereumWallet()
      fake.request.mockImplementation(() => new Promise(() => {}))
      const key = installEthereum(fake)
      const { wallets } = create({ rpcTimeoutMs: 1000 })
      const result = wallets.connect(key, 'ethereum')
      const caught = result.catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(1000)
      expect(await caught).toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
      expect(wallets.getState().connectors[key]).toBe('disconnected')
    } finally {
      vi.useRealTimers()
    }
  })

  it('connects a legacy window.ethereum', async () => {
    const fake = fakeEthereumWallet()
    ;(window as { ethereum?: unknown }).ethereum = Object.assign(fake.provider, {
      isMetaMask: true,
    })
    const { wallets } = create()
    const wallet = await wallets.connect('eip6963:legacy:io.metamask', 'ethereum')
    expect(wallet).toMatchObject({ address: VITALIK_CHECKSUMMED, walletClientType: 'metamask' })
  })
})

describe('a connected Ethereum wallet follows its provider', () => {
  async function connected() {
    const fake = fakeEthereumWallet()
    const key = installEthereum(fake)
    const { wallets, storage } = create()
    await wallets.connect(key, 'ethereum')
    const current = () =>
      wallets.getState().wallets[0] as ConnectedEthereumExternalWallet | undefined
    return { fake, key, wallets, storage, current }
  }

  it("accountsChanged with a new account updates the wallet's address (and the record)", async () => {
    const { fake, storage, current } = await connected()
    fake.emit('accountsChanged', [OTHER])
    expect(current()).toMatchObject({ address: OTHER_CHECKSUMMED, connectedAt: 1_700_000_000_000 })
    expect(storedRecords(storage)?.[0]?.address).toBe(OTHER_CHECKSUMMED)
  })

  it('accountsChanged with [] removes the wallet and disconnects the connector', async () => {
    const { fake, key, wallets, storage } = await connected()
    fake.emit('accountsChanged', [])
    expect(wallets.getState().wallets).toEqual([])
    expect(wallets.getState().connectors[key]).toBe('disconnected')
    expect(storedRecords(storage)).toBeNull()
  })

  it('chainChanged updates chainId', async () => {
    const { fake, current } = await connected()
    fake.emit('chainChanged', '0x2105')
    expect(current()?.chainId).toBe('eip155:8453')
  })

  it('a disconnect event clears the wallet', async () => {
    const { fake, key, wallets } = await connected()
    fake.emit('disconnect', { code: 4900 })
    expect(wallets.getState().wallets).toEqual([])
    expect(wallets.getState().connectors[key]).toBe('disconnected')
  })

  it('each change replaces the state object (for useSyncExternalStore)', async () => {
    const { fake, wallets } = await connected()
    const before = wallets.getState()
    fake.emit('chainChanged', '0xa')
    expect(wallets.getState()).not.toBe(before)
    expect(wallets.getState().wallets).not.toBe(before.wallets)
  })

  it('destroy() stops following the provider', async () => {
    const { fake, wallets } = await connected()
    expect(fake.listeners.get('accountsChanged')?.size).toBe(1)
    wallets.destroy()
    expect(fake.listeners.get('accountsChanged')?.size ?? 0).toBe(0)
    expect(fake.listeners.get('chainChanged')?.size ?? 0).toBe(0)
    expect(fake.listeners.get('disconnect')?.size ?? 0).toBe(0)
  })

  it('switchChain to a chain the app does not support throws UNSUPPORTED_CHAIN without asking the wallet', async () => {
    const { fake, current } = await connected()
    fake.request.mockClear()
    await expect(current()?.switchChain(base.id)).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      details: { id: base.id },
    })
    expect(fake.request).not.toHaveBeenCalled()
  })

  it('switchChain switches the wallet; chainChanged updates the wallet', async () => {
    const { fake, current } = await connected()
    fake.request.mockClear()
    await current()?.switchChain(optimism.id)
    expect(fake.methods()).toEqual(['wallet_switchEthereumChain'])
    expect(current()?.chainId).toBe('eip155:10')
  })

  it('switchChain adds a chain the wallet does not know (4902) with addChainParameters, then switches', async () => {
    const fake = fakeEthereumWallet({ knownChains: [1] })
    const key = installEthereum(fake)
    const { wallets } = create({ chains: [mainnet, base], defaultChain: mainnet })
    const wallet = (await wallets.connect(key, 'ethereum')) as ConnectedEthereumExternalWallet
    fake.request.mockClear()
    await wallet.switchChain(base.id)
    expect(fake.request.mock.calls.map(([args]) => args)).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
      { method: 'wallet_addEthereumChain', params: [addChainParameters(base)] },
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
    ])
    expect((wallets.getState().wallets[0] as ConnectedEthereumExternalWallet).chainId).toBe(
      'eip155:8453',
    )
  })
})
