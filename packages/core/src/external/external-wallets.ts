import {
  CONNECTOR_INIT_TIMEOUT_MS,
  INJECTED_DETECTION_TIMEOUT_MS,
  WALLET_RPC_TIMEOUT_MS,
} from '@latchkey/protocol/constants'
import type { ChainType } from '@latchkey/protocol/schemas'
import { LatchkeyError } from '../errors.ts'
import type { KeyValueStorage } from '../storage.ts'
import { checkChains } from './chains.ts'
import { providerErrorCode, toWalletError } from './errors.ts'
import { type ConnectorContext, connectEthereum } from './ethereum-connector.ts'
import { phantomEthereumProvider, watchEthereumWallets } from './ethereum-discovery.ts'
import { KNOWN_WALLETS, slugForWallet } from './listings.ts'
import { connectSolana } from './solana-connector.ts'
import { watchSolanaWallets } from './solana-discovery.ts'
import type { ConnectedExternalWallet, EvmChain, WalletChainType, WalletOption } from './types.ts'
import { walletOptions } from './wallet-list.ts'
import { createWalletStore, type ExternalWalletsState } from './wallet-store.ts'

export type { ExternalWalletsState } from './wallet-store.ts'

export interface ExternalWalletsOptions {
  appId: string
  storage: KeyValueStorage
  /** The page (default `window`). */
  window?: Window
  /** Shown by WalletConnect and Coinbase Wallet. */
  appName?: string
  appLogoUrl?: string | null
  /** Chains the app supports (non-empty) and the one wallets are switched to. */
  chains: readonly EvmChain[]
  defaultChain: EvmChain
  /** WalletConnect Cloud project id; without it WalletConnect is not offered. */
  walletConnectProjectId?: string | null
  /** A self-hosted WalletConnect relay (`wss://…`); default WalletConnect's public relay. */
  walletConnectRelayUrl?: string
  /** Wallet request timeout (spec 01 §9: default WALLET_RPC_TIMEOUT_MS, 120 s). */
  rpcTimeoutMs?: number
  /**
   * Per-wallet request timeouts, by `walletClientType` (`metamask`,
   * `phantom`, `wallet_connect`…); other wallets get `rpcTimeoutMs`.
   */
  rpcTimeoutMsByWallet?: Readonly<Record<string, number>>
  now?: () => number
}

export interface ConnectHooks {
  /** WalletConnect's pairing URI, for the QR code / deep link. */
  onDisplayUri?(uri: string): void
}

export interface ExternalWallets {
  getState(): ExternalWalletsState
  subscribe(listener: () => void): () => void
  /** The connect list: detected wallets, then the `walletList` entries (spec 01 §2). */
  options(filter?: {
    walletChainType?: WalletChainType
    walletList?: readonly string[]
  }): WalletOption[]
  /** Connects the row `key` on `chainType`; resolves once the wallet gave an account. */
  connect(key: string, chainType: ChainType, hooks?: ConnectHooks): Promise<ConnectedExternalWallet>
  /** Reconnects stored connections silently (no prompt); wallets that refuse are forgotten. */
  restore(): Promise<void>
  /** The most recently connected wallet client and chain type (per app). */
  recent(): { walletClientType: string; chainType: ChainType } | null
  chains: readonly EvmChain[]
  defaultChain: EvmChain
  destroy(): void
}

/**
 * External wallets of one app: discovery (EIP-6963, a legacy
 * `window.ethereum`, the Wallet Standard), connecting (injected, WalletConnect,
 * Coinbase Wallet, Solana wallets), stored connection records and the most
 * recent wallet, all in one observable store.
 *
 * @example
 * const wallets = createExternalWallets({ appId, storage, chains: [mainnet], defaultChain: mainnet })
 * const wallet = await wallets.connect(wallets.options()[0].key, 'ethereum')
 */
export function createExternalWallets(options: ExternalWalletsOptions): ExternalWallets {
  checkChains(options.chains, options.defaultChain)
  const win = options.window ?? window
  const store = createWalletStore(options.storage, options.appId)
  const ctx: ConnectorContext = {
    store,
    chains: options.chains,
    rpcTimeoutMs: (walletClientType) =>
      options.rpcTimeoutMsByWallet?.[walletClientType] ??
      options.rpcTimeoutMs ??
      WALLET_RPC_TIMEOUT_MS,
    now: options.now ?? Date.now,
  }
  const cleanups: Array<() => void> = []

  cleanups.push(
    watchEthereumWallets(win, (ethereum) => {
      const connectors = { ...store.getState().connectors }
      for (const w of ethereum) connectors[`eip6963:${w.info.uuid}`] ??= 'initialized'
      store.set({ ethereum, connectors })
    }),
  )
  try {
    cleanups.push(watchSolanaWallets((solana) => store.set({ solana })))
  } catch {
    // No Wallet Standard registry (server rendering): Solana wallets stay empty.
  }

  async function walletConnectProvider(hooks: ConnectHooks) {
    if (!options.walletConnectProjectId) throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
    const { createWalletConnectProvider } = await import('./walletconnect.ts')
    return createWalletConnectProvider({
      projectId: options.walletConnectProjectId,
      chains: options.chains,
      defaultChain: options.defaultChain,
      appName: options.appName ?? win.location.host,
      appLogoUrl: options.appLogoUrl ?? null,
      url: win.location.origin,
      onDisplayUri: hooks.onDisplayUri,
      ...(options.walletConnectRelayUrl ? { relayUrl: options.walletConnectRelayUrl } : {}),
    })
  }

  async function coinbaseProvider() {
    const { createCoinbaseProvider } = await import('./coinbase.ts')
    return createCoinbaseProvider({
      appName: options.appName ?? win.location.host,
      appLogoUrl: options.appLogoUrl ?? null,
      chainIds: options.chains.map((c) => c.id),
    })
  }

  async function connect(key: string, chainType: ChainType, hooks: ConnectHooks = {}) {
    const state = store.getState()
    store.setConnector(key, state.connectors[key] ?? 'created')
    let wallet: ConnectedExternalWallet
    try {
      if (chainType === 'solana') {
        const name = key.startsWith('standard:') ? key.slice('standard:'.length) : null
        const slug = key.startsWith('eip6963:')
          ? slugForWallet(
              state.ethereum.find((w) => `eip6963:${w.info.uuid}` === key)?.info.name ?? '',
            )
          : null
        const standard = state.solana.find(
          (w) => w.name === name || (slug !== null && slugForWallet(w.name) === slug),
        )
        if (!standard) throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
        wallet = await connectSolana(ctx, `standard:${standard.name}`, standard)
      } else if (key.startsWith('eip6963:')) {
        const detected = state.ethereum.find((w) => `eip6963:${w.info.uuid}` === key)
        if (!detected) throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
        const slug = slugForWallet(detected.info.name, detected.info.rdns)
        wallet = await connectEthereum(
          ctx,
          key,
          detected.provider,
          { name: detected.info.name, icon: detected.info.icon || null, slug },
          'injected',
        ).catch((error: unknown) => {
          // Phantom refuses Ethereum as unauthorized (4100) when it is not on for this site.
          if (slug === 'phantom' && providerErrorCode(error) === 4100)
            throw new LatchkeyError('WALLET_MULTICHAIN_DISABLED', undefined, { cause: error })
          throw error
        })
      } else if (key.startsWith('standard:')) {
        // A Solana-only row picked for Ethereum: a two-chain wallet with Ethereum off.
        const slug = slugForWallet(key.slice('standard:'.length))
        const multichain = KNOWN_WALLETS[slug]?.chainTypes.includes('ethereum')
        // (Phantom with Ethereum on, only not announced yet, has `window.phantom.ethereum`.)
        if (multichain && !(slug === 'phantom' && phantomEthereumProvider(win)))
          throw new LatchkeyError('WALLET_MULTICHAIN_DISABLED')
        throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
      } else if (key === 'wallet_connect') {
        const wc = await walletConnectProvider(hooks)
        store.setConnector(key, 'initialized')
        wallet = await connectEthereum(
          ctx,
          key,
          wc.provider,
          { name: 'WalletConnect', icon: null, slug: 'wallet_connect' },
          'wallet_connect_v2',
          { onDisconnect: wc.disconnect, peerSlug: wc.walletSlug },
        )
      } else if (key === 'coinbase_wallet') {
        const cb = await coinbaseProvider()
        store.setConnector(key, 'initialized')
        wallet = await connectEthereum(
          ctx,
          key,
          cb.provider,
          { name: 'Coinbase Wallet', icon: null, slug: 'coinbase_wallet' },
          'coinbase_wallet',
          { onDisconnect: cb.disconnect },
        )
      } else throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
    } catch (error) {
      if (store.getState().connectors[key] !== 'connected') store.setConnector(key, 'disconnected')
      throw toWalletError(error)
    }
    store.setRecent(wallet)
    return wallet
  }

  /**
   * Spec 01 §9: an SDK connector that has not initialised after
   * CONNECTOR_INIT_TIMEOUT_MS is skipped (null); it may finish later, unused.
   */
  async function initInTime<T>(init: Promise<T>): Promise<T | null> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), CONNECTOR_INIT_TIMEOUT_MS)
    })
    return Promise.race([init, late]).finally(() => clearTimeout(timer))
  }

  async function restore() {
    const records = store.readRecords()
    await Promise.all(
      records.map(async (record) => {
        try {
          if (record.chainType === 'solana') {
            const name = record.key.slice('standard:'.length)
            const find = () => store.getState().solana.find((w) => w.name === name)
            await store.waitFor(() => Boolean(find()), INJECTED_DETECTION_TIMEOUT_MS)
            const standard = find()
            if (standard) await connectSolana(ctx, record.key, standard, true, record.connectedAt)
          } else if (record.key.startsWith('eip6963:')) {
            const match = () =>
              store.getState().ethereum.find((w) => `eip6963:${w.info.uuid}` === record.key)
            await store.waitFor(() => Boolean(match()), INJECTED_DETECTION_TIMEOUT_MS)
            const detected = match()
            if (detected)
              await connectEthereum(
                ctx,
                record.key,
                detected.provider,
                {
                  name: detected.info.name,
                  icon: detected.info.icon || null,
                  slug: record.walletClientType,
                },
                'injected',
                { silent: true, connectedAt: record.connectedAt },
              )
          } else if (record.key === 'coinbase_wallet' || record.key === 'wallet_connect') {
            const service = await initInTime(
              record.key === 'coinbase_wallet' ? coinbaseProvider() : walletConnectProvider({}),
            )
            if (!service) return store.keepRecord(record)
            await connectEthereum(
              ctx,
              record.key,
              service.provider,
              { name: record.walletClientType, icon: null, slug: record.walletClientType },
              record.connectorType,
              { silent: true, onDisconnect: service.disconnect, connectedAt: record.connectedAt },
            )
          }
        } catch {
          // The wallet no longer grants the account: forget it below.
        }
      }),
    )
    // Records of wallets that did not reconnect (and were not kept) are forgotten.
    store.writeRecords()
  }

  return {
    getState: store.getState,
    subscribe: store.subscribe,
    options: (filter = {}) =>
      walletOptions(store.getState(), filter, {
        walletConnect: Boolean(options.walletConnectProjectId),
      }),
    connect,
    restore,
    recent: store.recent,
    chains: options.chains,
    defaultChain: options.defaultChain,
    destroy() {
      for (const cleanup of cleanups.splice(0)) cleanup()
      store.destroy()
    },
  }
}
