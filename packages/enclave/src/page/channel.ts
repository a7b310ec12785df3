import { ENCLAVE_READY_EVENT } from '@latchkey/protocol/constants'
import { type EnclaveEvent, parseEnclaveRequest } from '@latchkey/protocol/schemas'
import type { EnclaveConfig } from './config.ts'
import { toErrorBody } from './errors.ts'
import type { Handlers } from './handlers.ts'

/** The parent window as the enclave uses it. */
export interface ParentWindow {
  postMessage(message: unknown, targetOrigin: string): void
}

/** The slice of `window` the channel uses (injectable for tests). */
export interface ChannelWindow {
  parent: ParentWindow | null
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  location?: { ancestorOrigins?: { length: number; [index: number]: string } }
  document?: { referrer?: string }
}

/**
 * The origin the page believes its parent has: `location.ancestorOrigins[0]`
 * (Chromium, Safari), else the referrer's origin (Firefox). Null when unknown.
 */
export function indicatedParentOrigin(win: ChannelWindow): string | null {
  const ancestors = win.location?.ancestorOrigins
  if (ancestors && ancestors.length > 0) return ancestors[0] ?? null
  const referrer = win.document?.referrer
  if (referrer) {
    try {
      return new URL(referrer).origin
    } catch {}
  }
  return null
}

/**
 * The origins to announce readiness to: the indicated parent when it is one
 * of the allowed origins (exact match), none when it is another origin, and
 * every allowed origin when nothing indicates the parent (the browser then
 * delivers only to the one that matches the parent). Never `"*"`.
 */
export function readyTargets(win: ChannelWindow, allowed: readonly string[]): string[] {
  const indicated = indicatedParentOrigin(win)
  if (indicated === null) return [...allowed]
  return allowed.includes(indicated) ? [indicated] : []
}

export interface Channel {
  /** Settles once readiness has been announced (or would have been: not framed, or stopped). */
  readonly announced: Promise<void>
  stop(): void
}

/**
 * The enclave's postMessage endpoint (security bar 46). A message is handled
 * only when it comes from the parent window, from exactly one of the app's
 * origins (`===`; a look-alike or prefix is ignored), and passes the
 * protocol schema. Requests run one at a time; each answer goes to the
 * request's exact origin as `{ id, event: event + ':result', data }` or
 * `{ id, event: event + ':error', error: { code, message, details?,
 * retry_after? } }` (a server refusal's `details` and `retry_after`, e.g.
 * MFA_REQUIRED's `details.mfa_methods`: errors.ts). Readiness is
 * announced once the device key is loaded, with its thumbprint (which the
 * host's next login binds the session to): `{ event: ENCLAVE_READY_EVENT,
 * data: { key_thumbprint } }`, null when the key could not be loaded.
 */
export function startChannel(options: {
  window: ChannelWindow
  config: EnclaveConfig
  handlers: Handlers
  /** The device key's RFC 7638 thumbprint; null when this browser could not make or load it. */
  keyThumbprint: Promise<string | null>
}): Channel {
  const { window: win, config, handlers } = options
  // Not framed (the parent is the page itself): stay silent.
  const parent = win.parent && win.parent !== (win as unknown) ? win.parent : null
  const allowed = new Set(config.origins)
  let queue: Promise<void> = Promise.resolve()

  function onMessage(event: MessageEvent) {
    if (!parent || event.source !== parent) return
    if (typeof event.origin !== 'string' || !allowed.has(event.origin)) return
    const request = parseEnclaveRequest(event.data)
    if (!request) return
    const origin = event.origin
    queue = queue.then(() => handle(request, origin))
  }

  async function handle(
    request: { id: string; event: EnclaveEvent; data: unknown },
    origin: string,
  ): Promise<void> {
    let answer: object
    try {
      const handler = handlers[request.event] as (data: unknown) => Promise<unknown>
      const data = await handler(request.data)
      answer = { id: request.id, event: `${request.event}:result`, data }
    } catch (error) {
      answer = { id: request.id, event: `${request.event}:error`, error: toErrorBody(error) }
    }
    parent?.postMessage(answer, origin)
  }

  win.addEventListener('message', onMessage)
  let stopped = false
  const announced = options.keyThumbprint
    .catch(() => null)
    .then((key_thumbprint) => {
      if (stopped || !parent) return
      for (const origin of readyTargets(win, config.origins))
        parent.postMessage({ event: ENCLAVE_READY_EVENT, data: { key_thumbprint } }, origin)
    })

  return {
    announced,
    stop() {
      stopped = true
      win.removeEventListener('message', onMessage)
    },
  }
}
