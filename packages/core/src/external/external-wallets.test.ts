import { StorageKey } from '@latchkey/protocol/constants'
import { base58 } from '@scure/base'
import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { base, mainnet, optimism } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage, type KeyValueStorage } from '../storage.ts'
import type { EIP1193Provider, EIP6963ProviderInfo } from './ethereum-discovery.ts'
import {
  addChainParameters,
  checkChains,
  createExternalWallets,
  type ExternalWallets,
  type ExternalWalletsOptions,
  hasStoredWalletConnections,
  switchEthereumChain,
} from './external-wallets.ts'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedSolanaExternalWallet,
  ConnectorState,
  EvmChain,
  StoredConnection,
} from './types.ts'

// The SDK-backed connectors are loaded with import(); fakes stand in for them.
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

const APP_ID = 'testappaaaaaaaaaaaaaaaaaa'
const VITALIK = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045'
const VITALIK_CHECKSUMMED = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
const OTHER = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f'
const OTHER_CHECKSUMMED = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F'
const SOL_ADDRESS = base58.encode(Uint8Array.from({ length: 32 }, (_, i) => i + 1))
const SOL_ICON = 'data:image/svg+xml;base64,PHN2Zy8+' as const
const SOL_OTHER = base58.encode(Uint8Array.from({ length: 32 }, (_, i) => 100 + i))

// --- A fake EIP-1193 wallet ----------------------------------------------------

type Listener = (...args: unknown[]) => void

function fakeEthereumWallet({
  accounts = [VITALIK],
  chainId = 1,
  knownChains = [1, 10],
}: {
  accounts?: string[]
  chainId?: number
  knownChains?: number[]
} = {}) {
  const listeners = new Map<string, Set<Listener>>()
  const wallet = {
    accounts,
    chainId,
    knownChains: new Set(knownChains),
    authorized: false,
    /** When set, eth_requestAccounts rejects with it. */
    rejectWith: null as unknown,
  }
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args)
  }
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }) => {
    switch (method) {
      case 'eth_requestAccounts':
        if (wallet.rejectWith) throw wallet.rejectWith
        wallet.authorized = true
        return wallet.accounts
      case 'eth_accounts':
        return wallet.authorized ? wallet.accounts : []
      case 'eth_chainId':
        return `0x${wallet.chainId.toString(16)}`
      case 'wallet_switchEthereumChain': {
        const id = Number((params as [{ chainId: string }])[0].chainId)
        if (!wallet.knownChains.has(id))
          throw Object.assign(new Error('Unrecognized chain ID'), { code: 4902 })
        wallet.chainId = id
        emit('chainChanged', `0x${id.toString(16)}`)
        return null
      }
      case 'wallet_addEthereumChain':
        wallet.knownChains.add(Number((params as [{ chainId: string }])[0].chainId))
        return null
      default:
        throw Object.assign(new Error('Unsupported method'), { code: 4200 })
    }
  })
  const provider = {
    request,
    on: vi.fn((event: string, listener: Listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)?.add(listener)
    }),
    removeListener: vi.fn((event: string, listener: Listener) => {
      listeners.get(event)?.delete(listener)
    }),
  } satisfies EIP1193Provider
  const methods = () => request.mock.calls.map(([args]) => args.method)
  return { provider, wallet, emit, request, methods, listeners }
}

const cleanups: Array<() => void> = []

/** Installs the wallet in the page: it answers every eip6963:requestProvider. */
function installEthereum(
  fake: ReturnType<typeof fakeEthereumWallet>,
  info: Partial<EIP6963ProviderInfo> = {},
) {
  const detail = Object.freeze({
    info: Object.freeze({
      uuid: 'uuid-metamask',
      name: 'MetaMask',
      icon: 'data:image/svg+xml,<svg/>',
      rdns: 'io.metamask',
      ...info,
    }),
    provider: fake.provider,
  })
  const announce = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  cleanups.push(() => window.removeEventListener('eip6963:requestProvider', announce))
  announce()
  return `eip6963:${detail.info.uuid}`
}

// --- A fake Wallet Standard (Solana) wallet ----------------------------------------

function fakeSolanaWallet(
  name = 'Solflare',
  {
    address = SOL_ADDRESS,
    signIn = false,
    signTransaction = false,
  }: { address?: string; signIn?: boolean; signTransaction?: boolean } = {},
) {
  const account = (addr: string): WalletAccount => ({
    address: addr,
    publicKey: base58.decode(addr),
    chains: ['solana:mainnet'],
    features: ['solana:signMessage'],
  })
  const first = account(address)
  const changeListeners = new Set<(p: { accounts?: readonly WalletAccount[] }) => void>()
  const connect = vi.fn(async (_input?: { silent?: boolean }) => ({ accounts: [first] }))
  const disconnect = vi.fn(async () => {})
  const signMessage = vi.fn(
    async (...inputs: Array<{ account: WalletAccount; message: Uint8Array }>) =>
      inputs.map((input) => ({
        signedMessage: input.message,
        signature: new Uint8Array(64).fill(7),
      })),
  )
  const signTx = vi.fn(
    async (...inputs: Array<{ account: WalletAccount; transaction: Uint8Array; chain: string }>) =>
      inputs.map((input) => ({ signedTransaction: input.transaction })),
  )
  const signInFn = vi.fn(async (...inputs: unknown[]) =>
    inputs.map(() => ({
      account: first,
      signedMessage: new TextEncoder().encode('signed'),
      signature: new Uint8Array(64).fill(9),
    })),
  )
  const wallet: Wallet = {
    version: '1.0.0',
    name,
    icon: SOL_ICON,
    chains: ['solana:mainnet', 'solana:devnet'],
    accounts: [first],
    features: {
      'standard:connect': { version: '1.0.0', connect },
      'standard:disconnect': { version: '1.0.0', disconnect },
      'standard:events': {
        version: '1.0.0',
        on: (_event: 'change', listener: (p: { accounts?: readonly WalletAccount[] }) => void) => {
          changeListeners.add(listener)
          return () => changeListeners.delete(listener)
        },
      },
      'solana:signMessage': { version: '1.0.0', signMessage },
      ...(signIn ? { 'solana:signIn': { version: '1.0.0', signIn: signInFn } } : {}),
      ...(signTransaction
        ? {
            'solana:signTransaction': {
              version: '1.0.0',
              supportedTransactionVersions: ['legacy'],
              signTransaction: signTx,
            },
          }
        : {}),
    },
  }
  const change = (accounts: readonly WalletAccount[]) => {
    for (const listener of changeListeners) listener({ accounts })
  }
  return {
    wallet,
    account: first,
    accountFor: account,
    connect,
    disconnect,
    signMessage,
    signTx,
    signInFn,
    change,
  }
}

function installSolana(fake: ReturnType<typeof fakeSolanaWallet>) {
  const unregister = getWallets().register(fake.wallet)
  cleanups.push(unregister)
  return `standard:${fake.wallet.name}`
}

// --- The store under test ------------------------------------------------------

const instances: ExternalWallets[] = []

function create(overrides: Partial<ExternalWalletsOptions> = {}) {
  const storage = overrides.storage ?? createMemoryStorage()
  const wallets = createExternalWallets({
    appId: APP_ID,
    storage,
    chains: [mainnet, optimism],
    defaultChain: mainnet,
    now: () => 1_700_000_000_000,
    ...overrides,
  })
  instances.push(wallets)
  return { wallets, storage }
}

const connectionsKey = StorageKey.walletConnections.replace('{appId}', APP_ID)
const storedRecords = (storage: KeyValueStorage) =>
  JSON.parse(storage.get(connectionsKey) ?? 'null') as StoredConnection[] | null

/** Every connector state `key` goes through, from now on. */
function trackConnector(wallets: ExternalWallets, key: string) {
  const seen: Array<ConnectorState | undefined> = [wallets.getState().connectors[key]]
  wallets.subscribe(() => {
    const value = wallets.getState().connectors[key]
    if (value !== seen.at(-1)) seen.push(value)
  })
  return seen
}

afterEach(() => {
  for (const wallets of instances.splice(0)) wallets.destroy()
  for (const cleanup of cleanups.splice(0)) cleanup()
  sdk.coinbase = null
  sdk.walletConnect = null
  delete (window as { ethereum?: unknown }).ethereum
})

// --- Tests ---------------------------------------------------------------------

describe('checkChains (spec 01 §5)', () => {
  it('refuses an empty chain list with INVALID_CHAINS', () => {
    expect(() => checkChains([], mainnet)).toThrow(
      expect.objectContaining({ code: 'INVALID_CHAINS' }),
    )
  })

  it('refuses a default chain outside the list with UNSUPPORTED_CHAIN and details {id}', () => {
    let error: unknown
    try {
      checkChains([mainnet], base)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      details: { id: base.id },
      message: `Chain ID ${base.id} is not supported by this app.`,
    })
  })

  it('accepts a default chain in the list, or none', () => {
    expect(() => checkChains([mainnet, base], base)).not.toThrow()
    expect(() => checkChains([mainnet], undefined)).not.toThrow()
  })

  it('createExternalWallets validates its chains', () => {
    expect(() => create({ chains: [] })).toThrow(
      expect.objectContaining({ code: 'INVALID_CHAINS' }),
    )
    expect(() => create({ chains: [mainnet], defaultChain: base })).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CHAIN', details: { id: base.id } }),
    )
  })
})

describe('addChainParameters', () => {
  it('describes a viem chain for wallet_addEthereumChain', () => {
    expect(addChainParameters(base)).toEqual({
      chainId: '0x2105',
      chainName: 'Base',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: ['https://mainnet.base.org'],
      blockExplorerUrls: ['https://basescan.org'],
    })
  })

  it('leaves out blockExplorerUrls for a chain without an explorer', () => {
    const local: EvmChain = {
      id: 31337,
      name: 'Anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
    }
    expect(addChainParameters(local)).toEqual({
      chainId: '0x7a69',
      chainName: 'Anvil',
      nativeCurrency: local.nativeCurrency,
      rpcUrls: ['http://127.0.0.1:8545'],
    })
  })
})

describe('switchEthereumChain', () => {
  it('switches a wallet that knows the chain, without adding it', async () => {
    const fake = fakeEthereumWallet({ knownChains: [1, 10] })
    await switchEthereumChain(fake.provider, optimism)
    expect(fake.request.mock.calls.map(([args]) => args)).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] },
    ])
  })

  it('adds the chain when the wallet answers 4902 (even nested), then switches again', async () => {
    const fake = fakeEthereumWallet({ knownChains: [1] })
    fake.request.mockImplementationOnce(async () => {
      throw { data: { originalError: { code: 4902 } } }
    })
    await switchEthereumChain(fake.provider, base)
    expect(fake.request.mock.calls.map(([args]) => args)).toEqual([
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
      { method: 'wallet_addEthereumChain', params: [addChainParameters(base)] },
      { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] },
    ])
    expect(fake.wallet.chainId).toBe(base.id)
  })

  it('passes other failures on as wallet errors, without adding the chain', async () => {
    const fake = fakeEthereumWallet()
    fake.request.mockRejectedValueOnce({ code: 4001 })
    await expect(switchEthereumChain(fake.provider, optimism)).rejects.toMatchObject({
      code: 'WALLET_USER_REJECTED',
    })
    expect(fake.methods()).toEqual(['wallet_switchEthereumChain'])
  })
})

describe('options() — the connect list', () => {
  it('lists detected wallets first, then metamask, coinbase_wallet, rainbow (no WalletConnect without a project id)', () => {
    installEthereum(fakeEthereumWallet(), {
      uuid: 'uuid-rabby',
      name: 'Rabby Wallet',
      rdns: 'io.rabby',
    })
    const { wallets } = create()
    expect(wallets.options().map((o) => [o.key, o.id, o.kind, o.installed])).toEqual([
      ['eip6963:uuid-rabby', 'rabby', 'injected', true],
      ['install:metamask', 'metamask', 'not_installed', false],
      ['coinbase_wallet', 'coinbase_wallet', 'coinbase_wallet', true],
      ['install:rainbow', 'rainbow', 'not_installed', false],
    ])
  })

  it('offers WalletConnect last when a walletConnectProjectId is set', () => {
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    expect(wallets.options().map((o) => o.key)).toEqual([
      'install:metamask',
      'coinbase_wallet',
      'install:rainbow',
      'wallet_connect',
    ])
    expect(wallets.options().at(-1)).toMatchObject({
      id: 'wallet_connect',
      kind: 'wallet_connect',
      installed: true,
    })
  })

  it('a detected MetaMask takes its place at the top (once), with the listing links', () => {
    installEthereum(fakeEthereumWallet())
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    const options = wallets.options()
    expect(options.map((o) => o.key)).toEqual([
      'eip6963:uuid-metamask',
      'coinbase_wallet',
      'install:rainbow',
      'wallet_connect',
    ])
    expect(options[0]).toMatchObject({
      id: 'metamask',
      name: 'MetaMask',
      icon: 'data:image/svg+xml,<svg/>',
      chainTypes: ['ethereum'],
      installed: true,
      kind: 'injected',
      extensionUrl: 'https://metamask.io/download/',
    })
  })

  it('not-installed rows carry where to get the wallet', () => {
    const { wallets } = create()
    expect(wallets.options().find((o) => o.id === 'rainbow')).toMatchObject({
      key: 'install:rainbow',
      kind: 'not_installed',
      installed: false,
      extensionUrl: 'https://rainbow.me/extension',
      appStoreUrl: expect.stringContaining('apps.apple.com'),
    })
  })

  it('a legacy window.ethereum is listed as a detected wallet', () => {
    ;(window as { ethereum?: unknown }).ethereum = {
      ...fakeEthereumWallet().provider,
      isRabby: true,
    }
    const { wallets } = create()
    expect(wallets.options()[0]).toMatchObject({
      key: 'eip6963:legacy:io.rabby',
      id: 'rabby',
      name: 'Rabby',
      icon: null,
      kind: 'injected',
    })
  })

  describe('walletChainType', () => {
    function setup() {
      installEthereum(fakeEthereumWallet(), {
        uuid: 'uuid-phantom',
        name: 'Phantom',
        rdns: 'app.phantom',
      })
      installSolana(fakeSolanaWallet('Phantom'))
      installSolana(fakeSolanaWallet('Solflare'))
      return create({ walletConnectProjectId: 'project-1' }).wallets
    }

    it('ethereum-only (the default) hides Solana-only wallets; a wallet on both chains is one row', () => {
      const wallets = setup()
      expect(wallets.options()).toEqual(wallets.options({ walletChainType: 'ethereum-only' }))
      expect(wallets.options().map((o) => [o.key, o.chainTypes])).toEqual([
        ['eip6963:uuid-phantom', ['ethereum', 'solana']],
        ['install:metamask', ['ethereum']],
        ['coinbase_wallet', ['ethereum']],
        ['install:rainbow', ['ethereum']],
        ['wallet_connect', ['ethereum']],
      ])
    })

    it('solana-only shows only Solana wallets, as Wallet Standard rows', () => {
      const wallets = setup()
      expect(
        wallets
          .options({ walletChainType: 'solana-only' })
          .map((o) => [o.key, o.kind, o.chainTypes]),
      ).toEqual([
        ['standard:Phantom', 'wallet_standard', ['solana']],
        ['standard:Solflare', 'wallet_standard', ['solana']],
      ])
    })

    it('ethereum-and-solana shows everything', () => {
      const wallets = setup()
      expect(wallets.options({ walletChainType: 'ethereum-and-solana' }).map((o) => o.key)).toEqual(
        [
          'eip6963:uuid-phantom',
          'standard:Solflare',
          'install:metamask',
          'coinbase_wallet',
          'install:rainbow',
          'wallet_connect',
        ],
      )
    })
  })

  it('follows a custom walletList, in its order, without duplicates', () => {
    installEthereum(fakeEthereumWallet(), { uuid: 'uuid-rabby', name: 'Rabby', rdns: 'io.rabby' })
    installEthereum(fakeEthereumWallet())
    installSolana(fakeSolanaWallet('Solflare'))
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    expect(
      wallets
        .options({
          walletChainType: 'ethereum-and-solana',
          walletList: [
            'wallet_connect',
            'metamask',
            'phantom',
            'detected_solana_wallets',
            'detected_wallets',
          ],
        })
        .map((o) => o.key),
    ).toEqual([
      'wallet_connect',
      'eip6963:uuid-metamask',
      'install:phantom',
      'standard:Solflare',
      'eip6963:uuid-rabby',
    ])
    expect(
      wallets
        .options({ walletList: ['detected_ethereum_wallets', 'unknown-slug'] })
        .map((o) => o.key),
    ).toEqual(['eip6963:uuid-rabby', 'eip6963:uuid-metamask'])
  })

  it('a wallet that loads later shows up in the list and notifies subscribers', () => {
    const { wallets } = create()
    const listener = vi.fn()
    wallets.subscribe(listener)
    installEthereum(fakeEthereumWallet(), { uuid: 'late', name: 'Rabby', rdns: 'io.rabby' })
    expect(listener).toHaveBeenCalled()
    expect(wallets.getState().connectors['eip6963:late']).toBe('initialized')
    expect(wallets.options()[0]?.key).toBe('eip6963:late')
  })
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

  it('no accounts gives WALLET_NO_ACCOUNTS', async () => {
    const key = installEthereum(fakeEthereumWallet({ accounts: [] }))
    const { wallets } = create()
    await expect(wallets.connect(key, 'ethereum')).rejects.toMatchObject({
      code: 'WALLET_NO_ACCOUNTS',
    })
    expect(wallets.getState().connectors[key]).toBe('disconnected')
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

    const { wallets } = create({ storage })
    await wallets.restore()
    expect(fake.methods()).toEqual(['eth_accounts'])
    expect(wallets.getState().wallets).toEqual([])
    expect(storedRecords(storage)).toBeNull()
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

describe('connect (Solana, Wallet Standard)', () => {
  it('connects with standard:connect and stores the record', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets, storage } = create()
    const states = trackConnector(wallets, key)
    const wallet = (await wallets.connect(key, 'solana')) as ConnectedSolanaExternalWallet
    expect(fake.connect).toHaveBeenCalledWith(undefined)
    expect(wallet).toMatchObject({
      type: 'solana',
      address: SOL_ADDRESS,
      chainId: null,
      walletClientType: 'solflare',
      connectorType: 'solana_adapter',
      imported: false,
      meta: { name: 'Solflare', icon: SOL_ICON, id: key },
    })
    expect(wallet.signIn).toBeUndefined()
    expect(wallet.signTransaction).toBeUndefined()
    expect(states).toEqual([undefined, 'created', 'connected'])
    expect(storedRecords(storage)).toEqual([
      expect.objectContaining({ key, chainType: 'solana', connectorType: 'solana_adapter' }),
    ])
    expect(wallets.recent()).toEqual({ walletClientType: 'solflare', chainType: 'solana' })
  })

  it('signMessage passes the account and the bytes through and returns the signature', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets } = create()
    const wallet = (await wallets.connect(key, 'solana')) as ConnectedSolanaExternalWallet
    const message = new TextEncoder().encode('hello')
    const signature = await wallet.signMessage(message)
    expect(fake.signMessage).toHaveBeenCalledWith({ account: fake.account, message })
    expect(signature).toEqual(new Uint8Array(64).fill(7))
  })

  it('exposes signIn and signTransaction when the wallet has them', async () => {
    const fake = fakeSolanaWallet('Phantom', { signIn: true, signTransaction: true })
    const key = installSolana(fake)
    const { wallets } = create()
    const wallet = (await wallets.connect(key, 'solana')) as ConnectedSolanaExternalWallet
    const transaction = Uint8Array.from([1, 2, 3])
    expect(await wallet.signTransaction?.(transaction)).toEqual(transaction)
    expect(fake.signTx).toHaveBeenCalledWith({
      account: fake.account,
      transaction,
      chain: 'solana:mainnet',
    })
    const input = { domain: 'app.test', nonce: 'abcdefgh' }
    expect(await wallet.signIn?.(input)).toEqual({
      signedMessage: new TextEncoder().encode('signed'),
      signature: new Uint8Array(64).fill(9),
    })
    expect(fake.signInFn).toHaveBeenCalledWith(input)
  })

  it('a wallet rejecting with a plain "User rejected" Error gives WALLET_USER_REJECTED', async () => {
    const fake = fakeSolanaWallet('Solflare')
    fake.connect.mockRejectedValueOnce(new Error('User rejected the request.'))
    const key = installSolana(fake)
    const { wallets } = create()
    await expect(wallets.connect(key, 'solana')).rejects.toMatchObject({
      code: 'WALLET_USER_REJECTED',
    })
    expect(wallets.getState().connectors[key]).toBe('disconnected')
  })

  it('a wallet granting no account gives WALLET_NO_ACCOUNTS', async () => {
    const fake = fakeSolanaWallet('Solflare')
    fake.connect.mockResolvedValueOnce({ accounts: [] })
    const key = installSolana(fake)
    const { wallets } = create()
    await expect(wallets.connect(key, 'solana')).rejects.toMatchObject({
      code: 'WALLET_NO_ACCOUNTS',
    })
  })

  it("an EVM + Solana wallet's injected row connects on Solana through its Wallet Standard side", async () => {
    const evm = fakeEthereumWallet()
    const key = installEthereum(evm, { uuid: 'uuid-phantom', name: 'Phantom', rdns: 'app.phantom' })
    const sol = fakeSolanaWallet('Phantom')
    installSolana(sol)
    const { wallets } = create()
    const wallet = await wallets.connect(key, 'solana')
    expect(wallet).toMatchObject({ type: 'solana', meta: { id: 'standard:Phantom' } })
    expect(sol.connect).toHaveBeenCalled()
    expect(evm.request).not.toHaveBeenCalled()
  })

  it('follows account changes: a new account updates it, none removes it', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets, storage } = create()
    await wallets.connect(key, 'solana')
    fake.change([fake.accountFor(SOL_OTHER)])
    expect(wallets.getState().wallets).toEqual([
      expect.objectContaining({ address: SOL_OTHER, connectedAt: 1_700_000_000_000 }),
    ])
    expect(storedRecords(storage)?.[0]?.address).toBe(SOL_OTHER)
    fake.change([])
    expect(wallets.getState().wallets).toEqual([])
    expect(wallets.getState().connectors[key]).toBe('disconnected')
  })

  it('disconnect() forgets the wallet and asks it to disconnect', async () => {
    const fake = fakeSolanaWallet('Solflare')
    const key = installSolana(fake)
    const { wallets, storage } = create()
    const wallet = await wallets.connect(key, 'solana')
    await wallet.disconnect()
    expect(fake.disconnect).toHaveBeenCalled()
    expect(wallets.getState().wallets).toEqual([])
    expect(storedRecords(storage)).toBeNull()
  })

  it('an unknown Wallet Standard name gives WALLET_NOT_FOUND_EXTERNAL', async () => {
    const { wallets } = create()
    await expect(wallets.connect('standard:Nope', 'solana')).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND_EXTERNAL',
    })
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
      slug: 'rainbow',
      uri: 'wc:abc@2',
      disconnect: async () => {},
    }
    const { wallets } = create({ walletConnectProjectId: 'project-1' })
    const onDisplayUri = vi.fn()
    const wallet = await wallets.connect('wallet_connect', 'ethereum', { onDisplayUri })
    expect(onDisplayUri).toHaveBeenCalledWith('wc:abc@2')
    expect(wallet).toMatchObject({
      connectorType: 'wallet_connect_v2',
      walletClientType: 'rainbow',
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

describe('recent() and hasStoredWalletConnections', () => {
  it('recent() is null for a missing or unreadable value', () => {
    const { wallets, storage } = create()
    expect(wallets.recent()).toBeNull()
    storage.set(StorageKey.recentWallet.replace('{appId}', APP_ID), 'garbage')
    expect(wallets.recent()).toBeNull()
  })

  it('records are kept per app id', async () => {
    const key = installEthereum(fakeEthereumWallet())
    const { wallets, storage } = create()
    await wallets.connect(key, 'ethereum')
    expect(hasStoredWalletConnections(storage, APP_ID)).toBe(true)
    expect(hasStoredWalletConnections(storage, 'otherappaaaaaaaaaaaaaaaaa')).toBe(false)
  })
})
