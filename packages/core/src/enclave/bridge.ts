import {
  ENCLAVE_EVENT_PREFIX,
  ENCLAVE_INIT_TIMEOUT_MS,
  ENCLAVE_READY_EVENT,
} from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { isKnownCode, loadErrorMessages } from '../error-messages.ts'
import { LatchkeyError } from '../errors.ts'
import { enclaveMayRun } from './may-run.ts'

/** The slice of `window` the bridge uses (injectable for tests). */
export interface BridgeWindow {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
}

/** The slice of `document` the bridge uses. */
export interface BridgeDocument {
  createElement(tag: 'iframe'): HTMLIFrameElement
  body: { appendChild(node: HTMLIFrameElement): unknown }
}

export interface EnclaveBridgeOptions {
  /** Full URL of the enclave page, e.g. `https://auth.example.com/apps/{appId}/embedded-wallets`. */
  url: string
  window?: BridgeWindow
  document?: BridgeDocument
  /** How long a call waits for the enclave to be ready (default 30 s). */
  initTimeoutMs?: number
  logger?: Pick<Console, 'warn'>
  /** Makes request ids (default: crypto.randomUUID). */
  newId?: () => string
}

export interface EnclaveRequestOptions {
  /** Wait this long for the enclave to be ready (15 s for import and Solana message signing). */
  initTimeoutMs?: number
}

export interface KeyThumbprintOptions {
  /** Wait this long for the enclave to be ready (default: the bridge's init timeout). */
  timeoutMs?: number
}

export interface EnclaveBridge {
  /** The enclave's origin: the only origin messages are accepted from and sent to. */
  readonly origin: string
  /** Sends `{ id, event, data }` and resolves with the matching answer's `data`. */
  request<T>(event: string, data: unknown, options?: EnclaveRequestOptions): Promise<T>
  /**
   * The RFC 7638 thumbprint of the enclave's device key, as its ready message
   * announced it: what a login binds the new session to (docs/security.md
   * "Key routes answer only to the enclave"). Waits for ready; resolves null,
   * never rejects, when the enclave has no key, failed to load, or is not
   * ready within the timeout.
   */
  keyThumbprint(options?: KeyThumbprintOptions): Promise<string | null>
  destroy(): void
}

/** An RFC 7638 SHA-256 thumbprint: 32 bytes, base64url without padding. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/

/**
 * The host side of the enclave channel (ARCHITECTURE "Embedded wallet keys"):
 * frames the enclave page invisibly, and exchanges typed `latchkey:` messages
 * with it. Answers are accepted only from the enclave's exact origin and its
 * own frame (security bar 46: a prefix or look-alike origin is ignored);
 * requests are posted to that exact origin, never to "*". A frame that fails
 * to load (its `error` event) fails the calls waiting for it, and every later
 * one, at once with "Failed to initialize embedded wallet proxy."
 * (WALLET_PROXY_INIT_FAILED, spec 03 §8) instead of letting them wait; a
 * frame that loads but never says it is ready fails calls with "Failed to
 * connect to wallet proxy" (WALLET_PROXY_UNAVAILABLE) once the init timeout
 * passes. A ready message after a load error (a retried load) clears it. A
 * frame that is gone (removed from the page, or the bridge destroyed) fails
 * calls at once with "Cannot connect to wallet proxy" (WALLET_PROXY_DISCONNECTED).
 *
 * @example
 * const bridge = createEnclaveBridge({ url: `${apiUrl}/apps/${appId}/embedded-wallets` })
 * const { address } = await bridge.request('latchkey:wallets:connect', { accessToken })
 */
export function createEnclaveBridge(options: EnclaveBridgeOptions): EnclaveBridge {
  const url = new URL(options.url)
  // Spec 01 §5: the embedded wallet requires HTTPS except on localhost.
  if (!enclaveMayRun(url)) throw new LatchkeyError('WALLET_PROXY_INSECURE')
  const origin = url.origin
  const win = options.window ?? (globalThis as unknown as { window: BridgeWindow }).window
  const doc = options.document ?? (globalThis as unknown as { document: BridgeDocument }).document
  const logger = options.logger ?? console
  const initTimeoutMs = options.initTimeoutMs ?? ENCLAVE_INIT_TIMEOUT_MS
  const newId = options.newId ?? (() => crypto.randomUUID())

  const pending = new Map<
    string,
    { resolve: (data: unknown) => void; reject: (e: Error) => void }
  >()
  let markReady!: () => void
  const ready = new Promise<void>((resolve) => {
    markReady = resolve
  })
  let isReady = false
  let destroyed = false
  // The frame's `error` event: calls fail at once rather than at the init timeout.
  let loadFailed = false
  const failedWaiters = new Set<() => void>()
  // Known once the enclave is ready (with or without a key) or cannot be.
  let thumbprint: string | null = null
  let markKeyKnown!: () => void
  const keyKnown = new Promise<void>((resolve) => {
    markKeyKnown = resolve
  })

  const iframe = doc.createElement('iframe')
  iframe.src = url.toString()
  iframe.title = 'Latchkey wallet'
  iframe.setAttribute('aria-hidden', 'true')
  iframe.setAttribute('tabindex', '-1')
  iframe.style.cssText =
    'position:absolute;width:0;height:0;border:0;opacity:0;pointer-events:none;visibility:hidden'
  iframe.addEventListener('error', () => {
    logger.warn('Latchkey: the wallet proxy failed to load; wallet calls will fail')
    if (!isReady) loadFailed = true
    markKeyKnown()
    for (const fail of [...failedWaiters]) fail()
  })
  doc.body.appendChild(iframe)

  function onMessage(event: MessageEvent) {
    // Exact origin and our own frame only; everything else is someone else's traffic.
    if (event.origin !== origin || event.source !== iframe.contentWindow) return
    const message = event.data as { id?: unknown; event?: unknown; data?: unknown; error?: unknown }
    if (!message || typeof message !== 'object' || typeof message.event !== 'string') return
    if (!message.event.startsWith(ENCLAVE_EVENT_PREFIX)) return
    if (message.event === ENCLAVE_READY_EVENT) {
      const announced = (message.data as { key_thumbprint?: unknown } | undefined)?.key_thumbprint
      thumbprint = typeof announced === 'string' && THUMBPRINT.test(announced) ? announced : null
      isReady = true
      loadFailed = false
      markReady()
      markKeyKnown()
      return
    }
    if (typeof message.id !== 'string') return
    const waiter = pending.get(message.id)
    if (!waiter) return
    pending.delete(message.id)
    if (message.event.endsWith(':error')) toEnclaveError(message.error).then(waiter.reject)
    else if (message.event.endsWith(':result')) waiter.resolve(message.data)
    else
      waiter.reject(new LatchkeyError('INTERNAL_ERROR', 'Unexpected answer from the wallet proxy'))
  }
  win.addEventListener('message', onMessage)

  function waitReady(timeoutMs: number): Promise<void> {
    if (isReady) return Promise.resolve()
    if (loadFailed) return Promise.reject(new LatchkeyError('WALLET_PROXY_INIT_FAILED'))
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer)
        failedWaiters.delete(fail)
      }
      const fail = () => {
        done()
        reject(new LatchkeyError('WALLET_PROXY_INIT_FAILED'))
      }
      const timer = setTimeout(() => {
        done()
        reject(new LatchkeyError('WALLET_PROXY_UNAVAILABLE'))
      }, timeoutMs)
      failedWaiters.add(fail)
      ready.then(() => {
        done()
        resolve()
      })
    })
  }

  return {
    origin,
    async request<T>(event: string, data: unknown, requestOptions: EnclaveRequestOptions = {}) {
      if (!event.startsWith(ENCLAVE_EVENT_PREFIX))
        throw new LatchkeyError(
          'INTERNAL_ERROR',
          `Enclave events start with ${ENCLAVE_EVENT_PREFIX}`,
        )
      if (destroyed) throw new LatchkeyError('WALLET_PROXY_DISCONNECTED')
      await waitReady(requestOptions.initTimeoutMs ?? initTimeoutMs)
      const target = iframe.contentWindow
      // Spec 02 §8: the frame is no longer in the page.
      if (!target || destroyed) throw new LatchkeyError('WALLET_PROXY_DISCONNECTED')
      const id = newId()
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (data: unknown) => void, reject })
        target.postMessage({ id, event, data }, origin)
      })
    },
    keyThumbprint({ timeoutMs = initTimeoutMs }: KeyThumbprintOptions = {}) {
      if (isReady) return Promise.resolve(thumbprint)
      return new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs)
        keyKnown.then(() => {
          clearTimeout(timer)
          resolve(thumbprint)
        })
      })
    },
    destroy() {
      destroyed = true
      markKeyKnown()
      win.removeEventListener('message', onMessage)
      for (const waiter of pending.values())
        waiter.reject(new LatchkeyError('WALLET_PROXY_DISCONNECTED'))
      pending.clear()
      iframe.remove?.()
    },
  }
}

/** The enclave's error as a LatchkeyError, once the catalogue (which knows the codes) is here. */
async function toEnclaveError(error: unknown): Promise<LatchkeyError> {
  const {
    code,
    message,
    retry_after: retryAfter,
  } = (error ?? {}) as {
    code?: unknown
    message?: unknown
    retry_after?: unknown
  }
  const catalogue = await loadErrorMessages().catch(() => undefined)
  const known: ErrorCode = catalogue && isKnownCode(catalogue, code) ? code : 'INTERNAL_ERROR'
  // The server's `retry_after` (MFA_MAX_ATTEMPTS, a 429), passed on by the enclave.
  return new LatchkeyError(known, typeof message === 'string' ? message : undefined, {
    details: error,
    ...(typeof retryAfter === 'number' && retryAfter >= 0 ? { retryAfter } : {}),
  })
}
