/**
 * A browser wallet for Chromium tests: an EIP-1193 provider announced per
 * EIP-6963 (and optionally set as `window.ethereum`), backed by a real
 * secp256k1 key that never enters the page. The page script forwards every
 * request through a Playwright binding to a handler here, in Node, which owns
 * the key (viem `privateKeyToAccount`) and the wallet's state (connected or
 * not, current chain, known chains). That state survives navigations, like a
 * real extension's.
 */
import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { type Address, type Hex, isHex, numberToHex, type PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { chainRequests } from './ethereum-send.ts'
import { consume, pageScriptSource, randomSuffix, runInCurrentDocuments, sleep } from './shared.ts'

export interface TestEthereumWalletBehaviour {
  /** Reject `eth_requestAccounts` with 4001: always (`true`) or the next N times (a number). */
  rejectConnect?: boolean | number
  /** Reject `personal_sign` / `eth_signTypedData_v4` with 4001: always or the next N times. */
  rejectSign?: boolean | number
  /** How long the "user" takes to answer a signature request. */
  signDelayMs?: number
}

export interface TestEthereumWalletOptions {
  /** Default: a fresh random key. */
  privateKey?: Hex
  /** EIP-6963 `info.name`. Default 'Test Wallet'. */
  name?: string
  /** EIP-6963 `info.rdns`. Default 'io.latchkey.testwallet'. */
  rdns?: string
  /** EIP-6963 `info.icon`, a data URI. Default: a small SVG. */
  icon?: string
  /** EIP-6963 `info.uuid`. Default: a random UUIDv4. */
  uuid?: string
  /** The chain the wallet is on at first. Default 1. */
  chainId?: number
  /** Chains the wallet knows (switchable without `wallet_addEthereumChain`). Default [1, 8453, 10, 31337]. */
  chains?: number[]
  /** Also set `window.ethereum` (and dispatch `ethereum#initialized`). Default false. */
  legacyInjected?: boolean
  /** Inject into iframes too, not only the top-level document. Default false. */
  allFrames?: boolean
  behaviour?: TestEthereumWalletBehaviour
  /** Per chain id, the node for eth_sendTransaction and reads (./ethereum-send.ts). */
  rpcUrls?: Record<number, string>
}

export interface EthereumWalletRequest {
  method: string
  params?: unknown
}

export type EthereumWalletEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect'

export interface EIP6963ProviderInfo {
  uuid: string
  name: string
  icon: string
  rdns: string
}

export interface TestEthereumWallet {
  address: Address
  /** The viem account holding the key: sign in Node with the same key the page's wallet uses. */
  account: PrivateKeyAccount
  privateKey: Hex
  /** What the wallet announces as EIP-6963 `info`. */
  info: EIP6963ProviderInfo
  /** Every request the page made, in order (including rejected and unsupported ones). */
  requests: EthereumWalletRequest[]
  /** Whether the page has been granted the account (`eth_requestAccounts` succeeded). */
  readonly connected: boolean
  /** The chain the wallet is on. */
  readonly chainId: number
  /** The current behaviour (counters count down as rejections are used). */
  readonly behaviour: Readonly<TestEthereumWalletBehaviour>
  /** Merges into the current behaviour. */
  setBehaviour(partial: Partial<TestEthereumWalletBehaviour>): void
  /**
   * Emits a provider event in the page, as if the user acted in the wallet,
   * and updates the wallet's state to match: `accountsChanged` with `[]`
   * disconnects, with addresses connects; `chainChanged` (hex or number)
   * switches chain (learning it if unknown). Payload defaults: the current
   * accounts, the current chain, `{ chainId }`, `{ code: 4900, message }`.
   */
  emit(event: EthereumWalletEvent, payload?: unknown): Promise<void>
}

const DEFAULT_ICON = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M16 6l8 10-8 4-8-4z" fill="#fff"/><path d="M8 18l8 8 8-8-8 4z" fill="#c7d2fe"/></svg>',
).toString('base64')}`

interface RpcErrorShape {
  code: number
  message: string
  data?: unknown
}

/** What the binding returns: Playwright bindings can only reject with plain Errors, so errors travel as values. */
interface Envelope {
  result?: unknown
  error?: RpcErrorShape
  /** Provider events the page emits before settling the request. */
  events?: Array<{ event: EthereumWalletEvent; payload: unknown }>
}

interface PageArg {
  binding: string
  hook: string
  info: EIP6963ProviderInfo
  legacyInjected: boolean
  allFrames: boolean
}

const userRejected = (): Envelope => ({
  error: { code: 4001, message: 'User rejected the request.' },
})
const unauthorized = (): Envelope => ({
  error: {
    code: 4100,
    message: 'The requested account and/or method has not been authorized by the user.',
  },
})
const invalidParams = (message: string): Envelope => ({ error: { code: -32602, message } })

function parseChainId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) {
    const n = Number.parseInt(value, 16)
    return Number.isSafeInteger(n) && n > 0 ? n : undefined
  }
  return undefined
}

/**
 * Installs the wallet in `page`: in every document it loads from now on
 * (init script), and in the document it shows now. Call before `page.goto`
 * for a wallet that is there when the app starts.
 */
export async function installTestEthereumWallet(
  page: Page,
  options: TestEthereumWalletOptions = {},
): Promise<TestEthereumWallet> {
  const privateKey = options.privateKey ?? generatePrivateKey()
  const account = privateKeyToAccount(privateKey)
  const address = account.address
  const info: EIP6963ProviderInfo = {
    uuid: options.uuid ?? randomUUID(),
    name: options.name ?? 'Test Wallet',
    icon: options.icon ?? DEFAULT_ICON,
    rdns: options.rdns ?? 'io.latchkey.testwallet',
  }
  let chainId = options.chainId ?? 1
  const chains = new Set([...(options.chains ?? [1, 8453, 10, 31337]), chainId])
  let connected = false
  const behaviour: TestEthereumWalletBehaviour = { ...options.behaviour }
  const requests: EthereumWalletRequest[] = []

  const ownsAddress = (value: unknown) =>
    typeof value === 'string' && value.toLowerCase() === address.toLowerCase()

  /** Runs a signature request as the user would: a pause, maybe a rejection. */
  async function approveSignature(sign: () => Promise<Hex>): Promise<Envelope> {
    if (behaviour.signDelayMs) await sleep(behaviour.signDelayMs)
    if (consume(behaviour, 'rejectSign')) return userRejected()
    return { result: await sign() }
  }

  const state = () => ({ chainId, connected })
  const onChain = chainRequests(account, options.rpcUrls ?? {}, state, approveSignature)
  async function handle(method: string, params: unknown): Promise<Envelope> {
    const args: unknown[] = Array.isArray(params) ? params : []
    switch (method) {
      case 'eth_requestAccounts': {
        if (consume(behaviour, 'rejectConnect')) return userRejected()
        const events: Envelope['events'] = connected
          ? []
          : [{ event: 'accountsChanged', payload: [address] }]
        connected = true
        return { result: [address], events }
      }
      case 'eth_accounts':
        return { result: connected ? [address] : [] }
      case 'eth_chainId':
        return { result: numberToHex(chainId) }
      case 'wallet_switchEthereumChain': {
        const requested = (args[0] as { chainId?: unknown } | undefined)?.chainId
        const id = parseChainId(requested)
        if (id === undefined) return invalidParams(`Invalid chainId: ${String(requested)}`)
        if (!chains.has(id))
          return {
            error: {
              code: 4902,
              message: `Unrecognized chain ID "${numberToHex(id)}". Try adding the chain using wallet_addEthereumChain first.`,
            },
          }
        if (id === chainId) return { result: null }
        chainId = id
        return { result: null, events: [{ event: 'chainChanged', payload: numberToHex(id) }] }
      }
      case 'wallet_addEthereumChain': {
        const requested = (args[0] as { chainId?: unknown } | undefined)?.chainId
        const id = parseChainId(requested)
        if (id === undefined) return invalidParams(`Invalid chainId: ${String(requested)}`)
        chains.add(id)
        return { result: null }
      }
      case 'personal_sign': {
        const [message, from] = args
        if (typeof message !== 'string')
          return invalidParams('personal_sign: message must be a string')
        if (!connected || !ownsAddress(from)) return unauthorized()
        return approveSignature(() =>
          account.signMessage({ message: isHex(message) ? { raw: message } : message }),
        )
      }
      case 'eth_signTypedData_v4': {
        const [from, data] = args
        if (!connected || !ownsAddress(from)) return unauthorized()
        let typed: Parameters<PrivateKeyAccount['signTypedData']>[0]
        try {
          typed = typeof data === 'string' ? JSON.parse(data) : (data as typeof typed)
        } catch {
          return invalidParams('eth_signTypedData_v4: typed data is not JSON')
        }
        return approveSignature(() => account.signTypedData(typed))
      }
      default:
        return (
          (await onChain(method, args)) ?? {
            error: {
              code: 4200,
              message: `The requested method is not supported by this Ethereum provider: ${method}`,
            },
          }
        )
    }
  }

  const suffix = randomSuffix()
  const arg: PageArg = {
    binding: `__latchkeyTestEthereumWallet_${suffix}`,
    hook: `__latchkeyTestEthereumWalletHook_${suffix}`,
    info,
    legacyInjected: options.legacyInjected ?? false,
    allFrames: options.allFrames ?? false,
  }
  await page.exposeBinding(arg.binding, async (_source, method: string, params: unknown) => {
    requests.push({ method, params })
    try {
      return await handle(method, params)
    } catch (error) {
      return { error: { code: -32603, message: `Internal error: ${String(error)}` } }
    }
  })
  const source = pageScriptSource(ethereumPageScript, arg)
  await page.addInitScript({ content: source })
  // The document shown now (the init script only runs for documents to come).
  await runInCurrentDocuments(page.frames(), source)

  return {
    address,
    account,
    privateKey,
    info,
    requests,
    get connected() {
      return connected
    },
    get chainId() {
      return chainId
    },
    get behaviour() {
      return behaviour
    },
    setBehaviour(partial) {
      Object.assign(behaviour, partial)
    },
    async emit(event, payload) {
      let value = payload
      if (event === 'accountsChanged') {
        value ??= connected ? [address] : []
        connected = Array.isArray(value) && value.length > 0
      } else if (event === 'chainChanged') {
        const id = parseChainId(value ?? chainId)
        if (id === undefined) throw new Error(`chainChanged: not a chain id: ${String(value)}`)
        chains.add(id)
        chainId = id
        value = numberToHex(id)
      } else if (event === 'connect') {
        value ??= { chainId: numberToHex(chainId) }
      } else {
        value ??= { code: 4900, message: 'The provider is disconnected from all chains.' }
      }
      await Promise.all(
        page.frames().map((frame) =>
          frame
            .evaluate(
              ([hook, name, data]) => {
                const target = (window as unknown as Record<string, unknown>)[hook] as
                  | { emit(event: string, payload: unknown): void }
                  | undefined
                target?.emit(name, data)
              },
              [arg.hook, event, value] as const,
            )
            .catch(() => {}),
        ),
      )
    },
  }
}

/**
 * Runs in the page (serialized by Playwright: it may use nothing from outside
 * its own body). Defines the EIP-1193 provider and announces it per EIP-6963.
 */
function ethereumPageScript(arg: PageArg) {
  const w = window as unknown as Record<string, unknown>
  if (!arg.allFrames && window.top !== window) return
  if (w[arg.hook]) return // already installed in this document

  type Listener = (payload: unknown) => void
  const listeners = new Map<string, Set<Listener>>()
  const emit = (event: string, payload: unknown) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload)
      } catch (error) {
        console.error(error)
      }
    }
  }
  const rpcError = (error: { code: number; message: string; data?: unknown }) =>
    Object.assign(new Error(error.message), {
      code: error.code,
      ...(error.data === undefined ? {} : { data: error.data }),
    })
  const call = (method: string, params: unknown) =>
    (
      w[arg.binding] as (
        method: string,
        params: unknown,
      ) => Promise<{
        result?: unknown
        error?: { code: number; message: string; data?: unknown }
        events?: Array<{ event: string; payload: unknown }>
      }>
    )(method, params)

  const provider = {
    request(args: { method: string; params?: unknown }): Promise<unknown> {
      if (!args || typeof args !== 'object' || typeof args.method !== 'string')
        return Promise.reject(rpcError({ code: -32600, message: 'Invalid request' }))
      return call(args.method, args.params).then(
        (envelope) => {
          for (const { event, payload } of envelope.events ?? []) emit(event, payload)
          if (envelope.error) throw rpcError(envelope.error)
          return envelope.result
        },
        (error: unknown) => {
          throw rpcError({ code: -32603, message: `Internal error: ${String(error)}` })
        },
      )
    },
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set<Listener>()
      listeners.set(event, set)
      set.add(listener)
      return provider
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener)
      return provider
    },
    off(event: string, listener: Listener) {
      return provider.removeListener(event, listener)
    },
  }
  Object.defineProperty(w, arg.hook, { value: Object.freeze({ emit }), enumerable: false })

  const info = Object.freeze({ ...arg.info })
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  announce()

  if (arg.legacyInjected) {
    w.ethereum = provider
    window.dispatchEvent(new Event('ethereum#initialized'))
  }
}
