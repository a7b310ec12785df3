import type { EIP1193Provider } from './ethereum-discovery.ts'
import { slugForWallet } from './listings.ts'
import type { EvmChain } from './types.ts'
import type { Session } from './walletconnect/protocol.ts'
import { createSignClient, type SignClient } from './walletconnect/sign-client.ts'
import { defaultStorage, type WalletConnectStorage } from './walletconnect/storage.ts'

export type { WalletConnectStorage } from './walletconnect/storage.ts'

const DEFAULT_RELAY_URL = 'wss://relay.walletconnect.org'

export interface WalletConnectProviderOptions {
  projectId: string
  chains: readonly EvmChain[]
  defaultChain: EvmChain
  appName: string
  appLogoUrl: string | null
  url: string
  onDisplayUri?(uri: string): void
  /** A WalletConnect relay other than the public one (self-hosted relays). */
  relayUrl?: string
  /**
   * Where the WalletConnect client keeps its relay key and its session
   * (default: `localStorage` in browsers, memory elsewhere). Tests pass an
   * in-memory store.
   */
  storage?: WalletConnectStorage
}

export interface WalletConnectConnection {
  provider: EIP1193Provider
  /** The connected wallet app's slug (`metamask`, `rainbow`…), from its session metadata. */
  walletSlug(): string | null
  disconnect(): Promise<void>
  /**
   * Closes the relay socket and stops the client's timers (tests; a page's
   * client lives with the page). Optional so other SDK connections fit the shape.
   */
  close?(): Promise<void>
}

/** What Latchkey asks the wallet to do; other (read-only) calls go to the chain's own RPC URL. */
const WALLET_METHODS = [
  'eth_sendTransaction',
  'eth_signTransaction',
  'eth_sign',
  'personal_sign',
  'eth_signTypedData',
  'eth_signTypedData_v4',
]
const WALLET_EVENTS = ['accountsChanged', 'chainChanged']
/** WalletConnect's USER_REJECTED(_CHAINS, _METHODS, _EVENTS) codes: EIP-1193's 4001. */
const WC_USER_REJECTED = new Set([5000, 5001, 5002, 5003])

/** An EIP-1193 error: `code` is one of the provider codes (4001, 4100, 4200, 4900, 4901, 4902) or JSON-RPC's. */
export class ProviderRpcError extends Error {
  override name = 'ProviderRpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

type Listener = (...args: never[]) => void

/** The chains a session approved, as numbers (`eip155:8453` → 8453). */
function sessionChains(session: Session): number[] {
  const namespace = session.namespaces.eip155
  if (!namespace) return []
  const caip = namespace.chains ?? namespace.accounts.map((a) => a.split(':').slice(0, 2).join(':'))
  return [...new Set(caip.map((c) => Number(c.split(':')[1])))]
}

/** The session's addresses on `chainId` (CAIP-10 `eip155:1:0xabc…`); any chain's when it lists none there. */
function sessionAccounts(session: Session, chainId: number): string[] {
  const accounts = session.namespaces.eip155?.accounts ?? []
  const onChain = accounts.filter((a) => a.startsWith(`eip155:${chainId}:`))
  return [...new Set((onChain.length ? onChain : accounts).map((a) => a.split(':')[2] ?? ''))]
}

const toHex = (id: number) => `0x${id.toString(16)}`

/** Whatever WalletConnect or the RPC threw, as an EIP-1193 error (its rejections become 4001). */
function toProviderError(error: unknown): ProviderRpcError {
  if (error instanceof ProviderRpcError) return error
  const { code, message, data } = (error ?? {}) as {
    code?: unknown
    message?: unknown
    data?: unknown
  }
  const text = typeof message === 'string' ? message : String(error)
  if (typeof code !== 'number') return new ProviderRpcError(-32603, text)
  return new ProviderRpcError(WC_USER_REJECTED.has(code) ? 4001 : code, text, data)
}

/**
 * An EIP-1193 provider over one WalletConnect sign client: accounts
 * and chains come from the session's `eip155` namespace, signing goes to the
 * wallet, read-only calls to the chain's `rpcUrls.default.http[0]`.
 */
function eip1193Adapter(
  wc: SignClient,
  options: WalletConnectProviderOptions,
  displayUri: (uri: string) => void,
): EIP1193Provider {
  const listeners = new Map<string, Set<Listener>>()
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? [])
      (listener as (...a: unknown[]) => void)(...args)
  }
  /** The default chain when the session has it, else the session's first. */
  const startChain = (session: Session | undefined) => {
    const chains = session ? sessionChains(session) : []
    const preferred = options.defaultChain.id
    return chains.length === 0 || chains.includes(preferred) ? preferred : (chains[0] as number)
  }
  let chainId = startChain(wc.session ?? undefined)
  let rpcId = 0
  let pairing: Promise<unknown> | null = null

  async function ensureSession(): Promise<Session> {
    if (!wc.session) {
      pairing ??= (async () => {
        const chains = [
          options.defaultChain,
          ...options.chains.filter((c) => c !== options.defaultChain),
        ]
        try {
          const session = await wc.connect(
            {
              eip155: {
                chains: chains.map((c) => `eip155:${c.id}`),
                methods: WALLET_METHODS,
                events: WALLET_EVENTS,
                rpcMap: Object.fromEntries(
                  chains.map((c) => [`eip155:${c.id}`, c.rpcUrls.default.http[0] ?? '']),
                ),
              },
            },
            displayUri,
          )
          chainId = startChain(session)
        } finally {
          pairing = null
        }
      })()
      await pairing
    }
    if (!wc.session) throw new ProviderRpcError(4100, 'The wallet did not approve a session')
    return wc.session
  }

  function switchChain(params: unknown) {
    const target = Number((params as [{ chainId?: string }] | undefined)?.[0]?.chainId)
    const session = wc.session
    if (!session) throw new ProviderRpcError(4100, 'No WalletConnect session')
    // The session fixes the chains: one it did not approve cannot be added or switched to.
    if (!sessionChains(session).includes(target))
      throw new ProviderRpcError(4902, `Chain ${target} is not part of the WalletConnect session`)
    if (target !== chainId) {
      chainId = target
      emit('chainChanged', toHex(target))
    }
    return null
  }

  async function readRpc(method: string, params: unknown) {
    const url = options.chains.find((c) => c.id === chainId)?.rpcUrls.default.http[0]
    if (!url) throw new ProviderRpcError(4901, `No RPC URL for chain ${chainId}`)
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: params ?? [] }),
    })
    const body = (await response.json().catch(() => ({}))) as {
      result?: unknown
      error?: { code: number; message: string; data?: unknown }
    }
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
    if (!response.ok || !('result' in body))
      throw new ProviderRpcError(-32603, `${url} answered HTTP ${response.status}`)
    return body.result
  }

  async function handle(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts':
        return sessionAccounts(await ensureSession(), chainId)
      case 'eth_accounts':
        return wc.session ? sessionAccounts(wc.session, chainId) : []
      case 'eth_chainId':
        return toHex(chainId)
      case 'wallet_switchEthereumChain':
        return switchChain(params)
    }
    const session = wc.session
    if (session?.namespaces.eip155?.methods.includes(method))
      return wc.request({ chainId: `eip155:${chainId}`, method, params })
    if (WALLET_METHODS.includes(method) || /^(wallet_|eth_sign)/.test(method))
      throw session
        ? new ProviderRpcError(4200, `The wallet did not allow ${method} in this session`)
        : new ProviderRpcError(4100, 'No WalletConnect session: ask for eth_requestAccounts first')
    return readRpc(method, params)
  }

  wc.on('session_event', ({ event }) => {
    const { name, data } = event
    if (name === 'chainChanged') {
      chainId = Number(data)
      emit('chainChanged', toHex(chainId))
    } else if (name === 'accountsChanged' && Array.isArray(data))
      emit('accountsChanged', [...new Set(data.map((a: string) => a.split(':').at(-1)))])
  })
  wc.on('session_update', () => {
    if (!wc.session) return
    const chains = sessionChains(wc.session)
    if (!chains.includes(chainId)) {
      chainId = startChain(wc.session)
      emit('chainChanged', toHex(chainId))
    }
    emit('accountsChanged', sessionAccounts(wc.session, chainId))
  })
  wc.on('session_delete', () =>
    emit('disconnect', new ProviderRpcError(4900, 'The wallet ended the WalletConnect session')),
  )

  return {
    request: ({ method, params }) =>
      handle(method, params).catch((error: unknown) => {
        throw toProviderError(error)
      }),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
    },
    removeListener: (event, listener) => listeners.get(event)?.delete(listener),
  }
}

async function connectWalletConnect(
  options: WalletConnectProviderOptions,
  displayUri: (uri: string) => void,
): Promise<WalletConnectConnection> {
  const wc = await createSignClient({
    projectId: options.projectId,
    relayUrl: options.relayUrl ?? DEFAULT_RELAY_URL,
    metadata: {
      name: options.appName,
      description: options.appName,
      url: options.url,
      icons: options.appLogoUrl ? [options.appLogoUrl] : [],
    },
    storage: options.storage ?? defaultStorage(),
  })
  return {
    provider: eip1193Adapter(wc, options, displayUri),
    walletSlug: () => {
      const name = wc.session?.peer.metadata.name
      return name ? slugForWallet(name) : null
    },
    disconnect: () => wc.disconnect(),
    close: async () => wc.close(),
  }
}

interface SharedClient {
  connection: Promise<WalletConnectConnection>
  /** The QR hook of the latest caller (a restore passes none, a connect click one). */
  onDisplayUri?: (uri: string) => void
}

/** One WalletConnect client per page and relay: it holds the relay socket and the session. */
const shared = new Map<string, SharedClient>()

/**
 * A WalletConnect v2 EIP-1193 provider on Latchkey's own dapp-side Sign
 * client (`./walletconnect/`, no AppKit), loaded only when the user picks
 * WalletConnect. Latchkey draws the QR code itself from `onDisplayUri`. Calls
 * with the same project, relay and chains share one client (a second client
 * in a page would hold a second socket and handle every message twice).
 *
 * @example
 * const { provider } = await createWalletConnectProvider({ projectId, chains: [mainnet],
 *   defaultChain: mainnet, appName: 'Acme', appLogoUrl: null, url: location.origin, onDisplayUri: showQr })
 * const [address] = await provider.request({ method: 'eth_requestAccounts' })
 */
export function createWalletConnectProvider(
  options: WalletConnectProviderOptions,
): Promise<WalletConnectConnection> {
  if (options.storage) return connectWalletConnect(options, (uri) => options.onDisplayUri?.(uri))
  const key = [options.projectId, options.relayUrl ?? '', ...options.chains.map((c) => c.id)].join(
    ' ',
  )
  let entry = shared.get(key)
  if (!entry) {
    const hooks: Omit<SharedClient, 'connection'> = {}
    const connection = connectWalletConnect(options, (uri) => hooks.onDisplayUri?.(uri))
    connection.catch(() => shared.delete(key))
    entry = Object.assign(hooks, { connection })
    shared.set(key, entry)
  }
  entry.onDisplayUri = options.onDisplayUri
  return entry.connection
}
