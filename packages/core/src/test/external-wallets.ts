/**
 * Fakes for the external-wallet tests (`core/src/external/*.test.ts`): an
 * EIP-1193 wallet that announces itself by EIP-6963, a Wallet Standard
 * (Solana) wallet in the registry, and a manager with a fixed clock.
 */
import { StorageKey } from '@latchkey/protocol/constants'
import { base58 } from '@scure/base'
import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { mainnet, optimism } from 'viem/chains'
import { vi } from 'vitest'
import type { EIP1193Provider, EIP6963ProviderInfo } from '../external/ethereum-discovery.ts'
import {
  createExternalWallets,
  type ExternalWallets,
  type ExternalWalletsOptions,
} from '../external/external-wallets.ts'
import type { ConnectorState, StoredConnection } from '../external/types.ts'
import { createMemoryStorage, type KeyValueStorage } from '../storage.ts'

export const APP_ID = 'testappaaaaaaaaaaaaaaaaaa'
export const VITALIK = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045'
export const VITALIK_CHECKSUMMED = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'
export const OTHER = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f'
export const OTHER_CHECKSUMMED = '0x71C7656EC7ab88b098defB751B7401B5f6d8976F'
export const SOL_ADDRESS = base58.encode(Uint8Array.from({ length: 32 }, (_, i) => i + 1))
export const SOL_ICON = 'data:image/svg+xml;base64,PHN2Zy8+' as const
export const SOL_OTHER = base58.encode(Uint8Array.from({ length: 32 }, (_, i) => 100 + i))

// --- A fake EIP-1193 wallet ----------------------------------------------------

type Listener = (...args: unknown[]) => void

export function fakeEthereumWallet({
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
export function installEthereum(
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

export function fakeSolanaWallet(
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

export function installSolana(fake: ReturnType<typeof fakeSolanaWallet>) {
  const unregister = getWallets().register(fake.wallet)
  cleanups.push(unregister)
  return `standard:${fake.wallet.name}`
}

// --- The store under test ------------------------------------------------------

const instances: ExternalWallets[] = []

export function create(overrides: Partial<ExternalWalletsOptions> = {}) {
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

export const connectionsKey = StorageKey.walletConnections.replace('{appId}', APP_ID)
export const storedRecords = (storage: KeyValueStorage) =>
  JSON.parse(storage.get(connectionsKey) ?? 'null') as StoredConnection[] | null

/** Every connector state `key` goes through, from now on. */
export function trackConnector(wallets: ExternalWallets, key: string) {
  const seen: Array<ConnectorState | undefined> = [wallets.getState().connectors[key]]
  wallets.subscribe(() => {
    const value = wallets.getState().connectors[key]
    if (value !== seen.at(-1)) seen.push(value)
  })
  return seen
}

/** Destroys the managers and uninstalls the fake wallets of a test (call it in `afterEach`). */
export function resetExternalWalletFakes() {
  for (const wallets of instances.splice(0)) wallets.destroy()
  for (const cleanup of cleanups.splice(0)) cleanup()
  delete (window as { ethereum?: unknown; phantom?: unknown }).ethereum
  delete (window as { ethereum?: unknown; phantom?: unknown }).phantom
}
