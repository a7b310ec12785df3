import {
  CONNECTOR_INIT_TIMEOUT_MS,
  INJECTED_DETECTION_TIMEOUT_MS,
  StorageKey,
  WALLET_RPC_TIMEOUT_MS,
} from '@latchkey/protocol/constants'
import type { ChainType } from '@latchkey/protocol/schemas'
import { getAddress } from 'viem'
import { LatchkeyError } from '../errors.ts'
import type { KeyValueStorage } from '../storage.ts'
import { toWalletError, withWalletTimeout } from './errors.ts'
import {
  type DetectedEthereumWallet,
  type EIP1193Provider,
  watchEthereumWallets,
} from './ethereum-discovery.ts'
import { DEFAULT_WALLET_LIST, KNOWN_WALLETS, slugForWallet } from './listings.ts'
import {
  SOLANA_CONNECT,
  SOLANA_DISCONNECT,
  SOLANA_EVENTS,
  SOLANA_SIGN_IN,
  SOLANA_SIGN_MESSAGE,
  SOLANA_SIGN_TRANSACTION,
  type StandardWallet,
  type StandardWalletAccount,
  watchSolanaWallets,
} from './solana-discovery.ts'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedExternalWallet,
  ConnectedSolanaExternalWallet,
  ConnectorState,
  ConnectorType,
  EvmChain,
  SolanaSignInInput,
  StoredConnection,
  WalletChainType,
  WalletOption,
} from './types.ts'

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
  /** Wallet request timeout (default WALLET_RPC_TIMEOUT_MS, 120 s). */
  rpcTimeoutMs?: number
  now?: () => number
}

/** What the store holds; replaced (never mutated) on every change, for `useSyncExternalStore`. */
export interface ExternalWalletsState {
  ethereum: readonly DetectedEthereumWallet[]
  solana: readonly StandardWallet[]
  wallets: readonly ConnectedExternalWallet[]
  connectors: Readonly<Record<string, ConnectorState>>
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

const hex = (id: number) => `0x${id.toString(16)}`
const caip2 = (id: number) => `eip155:${id}`

/** The `wallet_addEthereumChain` parameters of a chain. */
export function addChainParameters(chain: EvmChain) {
  return {
    chainId: hex(chain.id),
    chainName: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: [...chain.rpcUrls.default.http],
    ...(chain.blockExplorers ? { blockExplorerUrls: [chain.blockExplorers.default.url] } : {}),
  }
}

/**
 * Switches an EIP-1193 wallet to `chain`; when the wallet does not know it
 * (4902) the chain is added first, then switched to.
 */
export async function switchEthereumChain(
  provider: EIP1193Provider,
  chain: EvmChain,
  timeoutMs = WALLET_RPC_TIMEOUT_MS,
): Promise<void> {
  const params = [{ chainId: hex(chain.id) }]
  try {
    await withWalletTimeout(
      provider.request({ method: 'wallet_switchEthereumChain', params }),
      timeoutMs,
    )
  } catch (error) {
    const cause = (error as LatchkeyError).details as { providerCode?: number } | undefined
    if (cause?.providerCode !== 4902) throw error
    await withWalletTimeout(
      provider.request({ method: 'wallet_addEthereumChain', params: [addChainParameters(chain)] }),
      timeoutMs,
    )
    await withWalletTimeout(
      provider.request({ method: 'wallet_switchEthereumChain', params }),
      timeoutMs,
    )
  }
}

/** Validates `chains` / `defaultChain` (spec 01 §5); throws INVALID_CHAINS or UNSUPPORTED_CHAIN. */
export function checkChains(chains: readonly EvmChain[], defaultChain: EvmChain | undefined) {
  if (chains.length === 0) throw new LatchkeyError('INVALID_CHAINS')
  if (defaultChain && !chains.some((c) => c.id === defaultChain.id))
    throw new LatchkeyError(
      'UNSUPPORTED_CHAIN',
      `Chain ID ${defaultChain.id} is not supported by this app.`,
      { details: { id: defaultChain.id } },
    )
}

const bytesOf = (value: Uint8Array | ArrayLike<number>) =>
  value instanceof Uint8Array ? value : Uint8Array.from(value)

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
  const now = options.now ?? Date.now
  const timeoutMs = options.rpcTimeoutMs ?? WALLET_RPC_TIMEOUT_MS
  const connectionsKey = StorageKey.walletConnections.replace('{appId}', options.appId)
  const recentKey = StorageKey.recentWallet.replace('{appId}', options.appId)
  const listeners = new Set<() => void>()
  const cleanups: Array<() => void> = []
  /** Per connection: removes the provider / wallet event listeners `follow` added. */
  const unfollow = new Map<string, () => void>()
  const stopFollowing = (key: string) => {
    unfollow.get(key)?.()
    unfollow.delete(key)
  }
  let state: ExternalWalletsState = { ethereum: [], solana: [], wallets: [], connectors: {} }

  const set = (patch: Partial<ExternalWalletsState>) => {
    state = { ...state, ...patch }
    for (const listener of listeners) listener()
  }
  const setConnector = (key: string, value: ConnectorState) =>
    set({ connectors: { ...state.connectors, [key]: value } })

  const readRecords = (): StoredConnection[] => {
    try {
      const parsed = JSON.parse(options.storage.get(connectionsKey) ?? '[]') as unknown
      return Array.isArray(parsed) ? (parsed as StoredConnection[]) : []
    } catch {
      return []
    }
  }
  const writeRecords = () => {
    const records: StoredConnection[] = state.wallets.map((w) => ({
      key: w.meta.id,
      address: w.address,
      chainType: w.type,
      connectorType: w.connectorType,
      walletClientType: w.walletClientType,
      connectedAt: w.connectedAt,
    }))
    if (records.length === 0) options.storage.remove(connectionsKey)
    else options.storage.set(connectionsKey, JSON.stringify(records))
  }
  const upsert = (wallet: ConnectedExternalWallet) => {
    const others = state.wallets.filter(
      (w) => !(w.type === wallet.type && w.meta.id === wallet.meta.id),
    )
    set({ wallets: [...others, wallet] })
    writeRecords()
  }
  const remove = (type: ChainType, key: string) => {
    if (!state.wallets.some((w) => w.type === type && w.meta.id === key)) return
    set({ wallets: state.wallets.filter((w) => !(w.type === type && w.meta.id === key)) })
    stopFollowing(key)
    setConnector(key, 'disconnected')
    writeRecords()
  }

  cleanups.push(
    watchEthereumWallets(win, (ethereum) => {
      for (const w of ethereum)
        if (!state.connectors[`eip6963:${w.info.uuid}`])
          state = {
            ...state,
            connectors: { ...state.connectors, [`eip6963:${w.info.uuid}`]: 'initialized' },
          }
      set({ ethereum })
    }),
  )
  try {
    cleanups.push(watchSolanaWallets((solana) => set({ solana })))
  } catch {
    // No Wallet Standard registry (server rendering): Solana wallets stay empty.
  }

  // --- Ethereum ---------------------------------------------------------------

  function ethereumWallet(
    key: string,
    provider: EIP1193Provider,
    address: string,
    chainId: number,
    meta: { name: string; icon: string | null; slug: string },
    connectorType: ConnectorType,
    connectedAt: number,
    onDisconnect?: () => Promise<void>,
  ): ConnectedEthereumExternalWallet {
    const wallet: ConnectedEthereumExternalWallet = {
      type: 'ethereum',
      address: getAddress(address),
      chainId: caip2(chainId),
      connectedAt,
      walletClientType: meta.slug,
      connectorType,
      imported: false,
      meta: { name: meta.name, icon: meta.icon, id: key },
      getEthereumProvider: () => provider,
      switchChain: async (id: number) => {
        const chain = options.chains.find((c) => c.id === id)
        if (!chain)
          throw new LatchkeyError(
            'UNSUPPORTED_CHAIN',
            `Chain ID ${id} is not supported by this app.`,
            {
              details: { id },
            },
          )
        await switchEthereumChain(provider, chain, timeoutMs)
      },
      disconnect: async () => {
        remove('ethereum', key)
        await onDisconnect?.().catch(() => undefined)
      },
    }
    return wallet
  }

  /** Follows a connected provider: account and chain changes update the record, disconnect removes it. */
  function follow(key: string, provider: EIP1193Provider) {
    const current = () =>
      state.wallets.find(
        (w): w is ConnectedEthereumExternalWallet => w.type === 'ethereum' && w.meta.id === key,
      )
    const onAccounts = (accounts: string[]) => {
      const wallet = current()
      if (!wallet) return
      if (!accounts?.length) return remove('ethereum', key)
      upsert({ ...wallet, address: getAddress(accounts[0] as string) })
    }
    const onChain = (chainId: string) => {
      const wallet = current()
      if (wallet) upsert({ ...wallet, chainId: caip2(Number(chainId)) })
    }
    const onDisconnect = () => remove('ethereum', key)
    stopFollowing(key)
    provider.on?.('accountsChanged', onAccounts as never)
    provider.on?.('chainChanged', onChain as never)
    provider.on?.('disconnect', onDisconnect as never)
    unfollow.set(key, () => {
      provider.removeListener?.('accountsChanged', onAccounts as never)
      provider.removeListener?.('chainChanged', onChain as never)
      provider.removeListener?.('disconnect', onDisconnect as never)
    })
  }

  async function connectEthereum(
    key: string,
    provider: EIP1193Provider,
    meta: { name: string; icon: string | null; slug: string },
    connectorType: ConnectorType,
    {
      silent = false,
      onDisconnect,
      connectedAt,
    }: { silent?: boolean; onDisconnect?: () => Promise<void>; connectedAt?: number } = {},
  ): Promise<ConnectedEthereumExternalWallet> {
    const method = silent ? 'eth_accounts' : 'eth_requestAccounts'
    const accounts = (await withWalletTimeout(provider.request({ method }), timeoutMs)) as
      | string[]
      | undefined
    if (!accounts?.length || typeof accounts[0] !== 'string')
      throw new LatchkeyError('WALLET_NO_ACCOUNTS')
    const chainId = Number(
      await withWalletTimeout(provider.request({ method: 'eth_chainId' }), timeoutMs),
    )
    const wallet = ethereumWallet(
      key,
      provider,
      accounts[0],
      chainId,
      meta,
      connectorType,
      connectedAt ?? now(),
      onDisconnect,
    )
    upsert(wallet)
    setConnector(key, 'connected')
    follow(key, provider)
    return wallet
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

  // --- Solana ------------------------------------------------------------------

  function solanaWallet(
    key: string,
    standard: StandardWallet,
    account: StandardWalletAccount,
    connectedAt: number,
  ): ConnectedSolanaExternalWallet {
    const features = standard.features as Record<string, Record<string, (...a: never[]) => unknown>>
    const signInFeature = features[SOLANA_SIGN_IN]
    const signTx = features[SOLANA_SIGN_TRANSACTION]
    const chain = account.chains.find((c) => c.startsWith('solana:')) ?? 'solana:mainnet'
    return {
      type: 'solana',
      address: account.address,
      chainId: null,
      connectedAt,
      walletClientType: slugForWallet(standard.name),
      connectorType: 'solana_adapter',
      imported: false,
      meta: { name: standard.name, icon: standard.icon ?? null, id: key },
      async signMessage(message) {
        const feature = features[SOLANA_SIGN_MESSAGE]
        if (!feature) throw new LatchkeyError('UNSUPPORTED_METHOD')
        const call = feature.signMessage as unknown as (input: {
          account: StandardWalletAccount
          message: Uint8Array
        }) => Promise<Array<{ signature: Uint8Array }>>
        const [output] = await withWalletTimeout(call({ account, message }), timeoutMs)
        if (!output) throw new LatchkeyError('WALLET_LOGIN_FAILED')
        return bytesOf(output.signature)
      },
      ...(signInFeature
        ? {
            async signIn(input: SolanaSignInInput) {
              const call = signInFeature.signIn as unknown as (
                input: SolanaSignInInput,
              ) => Promise<Array<{ signedMessage: Uint8Array; signature: Uint8Array }>>
              const [output] = await withWalletTimeout(call(input), timeoutMs)
              if (!output) throw new LatchkeyError('WALLET_LOGIN_FAILED')
              return {
                signedMessage: bytesOf(output.signedMessage),
                signature: bytesOf(output.signature),
              }
            },
          }
        : {}),
      ...(signTx
        ? {
            async signTransaction(transaction: Uint8Array) {
              const call = signTx.signTransaction as unknown as (input: {
                account: StandardWalletAccount
                transaction: Uint8Array
                chain: string
              }) => Promise<Array<{ signedTransaction: Uint8Array }>>
              const [output] = await withWalletTimeout(
                call({ account, transaction, chain }),
                timeoutMs,
              )
              if (!output) throw new LatchkeyError('WALLET_LOGIN_FAILED')
              return bytesOf(output.signedTransaction)
            },
          }
        : {}),
      disconnect: async () => {
        remove('solana', key)
        const disconnect = features[SOLANA_DISCONNECT]?.disconnect as
          | (() => Promise<void>)
          | undefined
        await disconnect?.().catch(() => undefined)
      },
    }
  }

  async function connectSolana(
    key: string,
    standard: StandardWallet,
    silent = false,
    connectedAt?: number,
  ): Promise<ConnectedSolanaExternalWallet> {
    const features = standard.features as Record<string, Record<string, (...a: never[]) => unknown>>
    const connect = features[SOLANA_CONNECT]?.connect as
      | ((input?: { silent?: boolean }) => Promise<{ accounts: readonly StandardWalletAccount[] }>)
      | undefined
    if (!connect) throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
    const { accounts } = await withWalletTimeout(
      connect(silent ? { silent: true } : undefined),
      timeoutMs,
    )
    const account =
      accounts.find((a) => a.chains.some((c) => c.startsWith('solana:'))) ?? accounts[0]
    if (!account) throw new LatchkeyError('WALLET_NO_ACCOUNTS')
    const wallet = solanaWallet(key, standard, account, connectedAt ?? now())
    upsert(wallet)
    setConnector(key, 'connected')
    const on = features[SOLANA_EVENTS]?.on as
      | ((
          event: 'change',
          listener: (p: { accounts?: readonly StandardWalletAccount[] }) => void,
        ) => () => void)
      | undefined
    stopFollowing(key)
    if (on)
      unfollow.set(
        key,
        on('change', ({ accounts: next }) => {
          if (!next) return
          const first = next[0]
          if (!first) return remove('solana', key)
          const current = state.wallets.find((w) => w.type === 'solana' && w.meta.id === key)
          if (current) upsert(solanaWallet(key, standard, first, current.connectedAt))
        }),
      )
    return wallet
  }

  // --- The list ------------------------------------------------------------------

  function options_(
    filter: { walletChainType?: WalletChainType; walletList?: readonly string[] } = {},
  ): WalletOption[] {
    const wantChain = (types: ChainType[]) =>
      filter.walletChainType === 'solana-only'
        ? types.includes('solana')
        : filter.walletChainType === 'ethereum-and-solana'
          ? true
          : types.includes('ethereum')
    const detected = new Map<string, WalletOption>()
    for (const w of state.ethereum) {
      const id = slugForWallet(w.info.name, w.info.rdns)
      // An announced wallet wins over the same wallet's bare window.ethereum.
      if (w.source === 'legacy' && detected.has(id)) continue
      const known = KNOWN_WALLETS[id]
      detected.set(id, {
        ...(known ?? {}),
        key: `eip6963:${w.info.uuid}`,
        id,
        name: w.info.name,
        icon: w.info.icon || known?.icon || null,
        chainTypes: ['ethereum'],
        installed: true,
        kind: 'injected',
      })
    }
    for (const w of state.solana) {
      const id = slugForWallet(w.name)
      const existing = detected.get(id)
      // One row per wallet: an EVM + Solana wallet (Phantom) connects on the chain asked for.
      if (existing && filter.walletChainType !== 'solana-only')
        detected.set(id, { ...existing, chainTypes: [...existing.chainTypes, 'solana'] })
      else
        detected.set(id, {
          ...(KNOWN_WALLETS[id] ?? {}),
          key: `standard:${w.name}`,
          id,
          name: w.name,
          icon: w.icon ?? null,
          chainTypes: ['solana'],
          installed: true,
          kind: 'wallet_standard',
        })
    }
    const list = filter.walletList ?? DEFAULT_WALLET_LIST
    const out: WalletOption[] = []
    const seen = new Set<string>()
    const push = (option: WalletOption) => {
      if (seen.has(option.id) || !wantChain(option.chainTypes)) return
      seen.add(option.id)
      out.push(option)
    }
    for (const entry of list) {
      if (
        entry === 'detected_wallets' ||
        entry === 'detected_ethereum_wallets' ||
        entry === 'detected_solana_wallets'
      ) {
        for (const option of detected.values()) {
          if (entry === 'detected_ethereum_wallets' && !option.chainTypes.includes('ethereum'))
            continue
          if (entry === 'detected_solana_wallets' && !option.chainTypes.includes('solana')) continue
          push(option)
        }
        continue
      }
      const found = detected.get(entry)
      if (found) {
        push(found)
        continue
      }
      const known = KNOWN_WALLETS[entry]
      if (entry === 'wallet_connect') {
        if (options.walletConnectProjectId && known)
          push({ ...known, key: 'wallet_connect', installed: true, kind: 'wallet_connect' })
        continue
      }
      if (entry === 'coinbase_wallet' && known) {
        push({ ...known, key: 'coinbase_wallet', installed: true, kind: 'coinbase_wallet' })
        continue
      }
      if (known)
        push({ ...known, key: `install:${entry}`, installed: false, kind: 'not_installed' })
    }
    return out
  }

  function setRecent(wallet: ConnectedExternalWallet) {
    options.storage.set(
      recentKey,
      JSON.stringify({ walletClientType: wallet.walletClientType, chainType: wallet.type }),
    )
  }

  async function connect(key: string, chainType: ChainType, hooks: ConnectHooks = {}) {
    setConnector(key, state.connectors[key] ?? 'created')
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
        wallet = await connectSolana(`standard:${standard.name}`, standard)
      } else if (key.startsWith('eip6963:')) {
        const detected = state.ethereum.find((w) => `eip6963:${w.info.uuid}` === key)
        if (!detected) throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
        const slug = slugForWallet(detected.info.name, detected.info.rdns)
        wallet = await connectEthereum(
          key,
          detected.provider,
          { name: detected.info.name, icon: detected.info.icon || null, slug },
          'injected',
        )
      } else if (key === 'wallet_connect') {
        const wc = await walletConnectProvider(hooks)
        setConnector(key, 'initialized')
        wallet = await connectEthereum(
          key,
          wc.provider,
          { name: 'WalletConnect', icon: null, slug: wc.walletSlug() ?? 'wallet_connect' },
          'wallet_connect_v2',
          { onDisconnect: wc.disconnect },
        )
      } else if (key === 'coinbase_wallet') {
        const cb = await coinbaseProvider()
        setConnector(key, 'initialized')
        wallet = await connectEthereum(
          key,
          cb.provider,
          { name: 'Coinbase Wallet', icon: null, slug: 'coinbase_wallet' },
          'coinbase_wallet',
          { onDisconnect: cb.disconnect },
        )
      } else throw new LatchkeyError('WALLET_NOT_FOUND_EXTERNAL')
    } catch (error) {
      if (state.connectors[key] !== 'connected') setConnector(key, 'disconnected')
      throw toWalletError(error)
    }
    setRecent(wallet)
    return wallet
  }

  /** Waits (at most `ms`) until `found()` is true, re-checking on every state change. */
  const waitFor = (found: () => boolean, ms: number) =>
    new Promise<void>((resolve) => {
      if (found()) return resolve()
      const stop = () => {
        clearTimeout(timer)
        listeners.delete(check)
        resolve()
      }
      const check = () => {
        if (found()) stop()
      }
      const timer = setTimeout(stop, ms)
      listeners.add(check)
    })

  async function restore() {
    const records = readRecords()
    await Promise.all(
      records.map(async (record) => {
        try {
          if (record.chainType === 'solana') {
            const name = record.key.slice('standard:'.length)
            await waitFor(
              () => state.solana.some((w) => w.name === name),
              INJECTED_DETECTION_TIMEOUT_MS,
            )
            const standard = state.solana.find((w) => w.name === name)
            if (standard) await connectSolana(record.key, standard, true, record.connectedAt)
          } else if (record.key.startsWith('eip6963:')) {
            const match = () => state.ethereum.find((w) => `eip6963:${w.info.uuid}` === record.key)
            await waitFor(() => Boolean(match()), INJECTED_DETECTION_TIMEOUT_MS)
            const detected = match()
            if (detected)
              await connectEthereum(
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
            let timer: ReturnType<typeof setTimeout> | undefined
            const service = await Promise.race([
              record.key === 'coinbase_wallet' ? coinbaseProvider() : walletConnectProvider({}),
              new Promise<never>((_, reject) => {
                timer = setTimeout(
                  () => reject(new LatchkeyError('TIMEOUT')),
                  CONNECTOR_INIT_TIMEOUT_MS * 4,
                )
              }),
            ]).finally(() => clearTimeout(timer))
            await connectEthereum(
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
    const connected = new Set(state.wallets.map((w) => `${w.type}:${w.meta.id}`))
    if (records.some((r) => !connected.has(`${r.chainType}:${r.key}`))) writeRecords()
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    options: options_,
    connect,
    restore,
    recent() {
      try {
        const value = JSON.parse(options.storage.get(recentKey) ?? 'null') as {
          walletClientType?: string
          chainType?: ChainType
        } | null
        return value?.walletClientType && value.chainType
          ? { walletClientType: value.walletClientType, chainType: value.chainType }
          : null
      } catch {
        return null
      }
    },
    chains: options.chains,
    defaultChain: options.defaultChain,
    destroy() {
      for (const cleanup of cleanups.splice(0)) cleanup()
      for (const off of unfollow.values()) off()
      unfollow.clear()
      listeners.clear()
    },
  }
}

/** Whether this browser has stored wallet connections for the app (cheap; no SDK loaded). */
export function hasStoredWalletConnections(storage: KeyValueStorage, appId: string): boolean {
  return Boolean(storage.get(StorageKey.walletConnections.replace('{appId}', appId)))
}
