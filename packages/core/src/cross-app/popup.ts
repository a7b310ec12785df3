import {
  CROSS_APP_CLOSED_POLL_MS,
  CROSS_APP_POPUP_SIZE,
  CROSS_APP_POPUP_TIMEOUT_MS,
  type CrossAppMessage,
  crossAppMessageSchema,
} from '@latchkey/protocol/client-schemas'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { LatchkeyError } from '../errors.ts'

/** A popup as the requester sees it (a `Window`, or anything with these). */
export interface CrossAppPopup {
  readonly closed: boolean
  close(): void
  location: { href: string } | Location
}

/** Where messages arrive (`window`). */
export interface MessageTarget {
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void
}

export interface WaitForCrossAppMessageOptions {
  popup: CrossAppPopup
  /** The provider page's origin: messages from anywhere else are ignored. */
  providerOrigin: string
  /** The state this request sent; an answer with another is refused (spec 03 §5). */
  state: string
  target?: MessageTarget
  timeoutMs?: number
  pollMs?: number
  signal?: AbortSignal
}

/**
 * Opens the 440x680 popup (spec 03 §7, §9) blank, so that it opens while the
 * click's user activation lasts; the caller sends it to the provider's page
 * once the URL is known. Null when the browser blocked it.
 */
export function openCrossAppPopup(name = 'latchkey-cross-app'): CrossAppPopup | null {
  const { width, height } = CROSS_APP_POPUP_SIZE
  const left = Math.max(
    0,
    (globalThis.screenX ?? 0) + ((globalThis.outerWidth ?? width) - width) / 2,
  )
  const top = Math.max(
    0,
    (globalThis.screenY ?? 0) + ((globalThis.outerHeight ?? height) - height) / 2,
  )
  return globalThis.open(
    'about:blank',
    name,
    `popup=yes,width=${width},height=${height},left=${Math.round(left)},top=${Math.round(top)}`,
  ) as CrossAppPopup | null
}

const KNOWN_ERRORS: readonly string[] = [
  'CROSS_APP_INVALID_APP',
  'CROSS_APP_INVALID_TOKEN',
  'CROSS_APP_READ_ONLY',
  'CROSS_APP_ADDRESS_NOT_CONNECTED',
  'CROSS_APP_CONNECT_FAILED',
  'ORIGIN_NOT_ALLOWED',
]

/**
 * Waits for the provider page's answer (spec 03 §4 "Cross-app auth"): a
 * message from the provider's origin with this request's state. Ends as
 * - the message (a code or a signature);
 * - CROSS_APP_REJECTED ('User rejected request') when the user declined;
 * - CROSS_APP_CANCELED ('User canceled flow') when the popup was closed
 *   (checked every 300 ms);
 * - CROSS_APP_TIMEOUT after 2 minutes;
 * - CROSS_APP_STATE_MISMATCH ('Unexpected auth flow. This may be a phishing
 *   attempt.') for an answer from the provider's origin with another state.
 * Messages from any other origin are ignored. The popup is closed on every
 * end but a close by the user.
 *
 * @example
 * const popup = openCrossAppPopup()
 * popup.location.href = url
 * const answer = await waitForCrossAppMessage({ popup, providerOrigin, state })
 */
export function waitForCrossAppMessage(
  options: WaitForCrossAppMessageOptions,
): Promise<CrossAppMessage> {
  const {
    popup,
    providerOrigin,
    state,
    target = globalThis as unknown as MessageTarget,
    timeoutMs = CROSS_APP_POPUP_TIMEOUT_MS,
    pollMs = CROSS_APP_CLOSED_POLL_MS,
    signal,
  } = options
  return new Promise<CrossAppMessage>((resolve, reject) => {
    const finish = (error: LatchkeyError | null, message?: CrossAppMessage) => {
      clearInterval(poll)
      clearTimeout(timer)
      target.removeEventListener('message', onMessage)
      signal?.removeEventListener('abort', onAbort)
      if (!popup.closed) popup.close()
      if (error) reject(error)
      else resolve(message as CrossAppMessage)
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== providerOrigin) return
      const parsed = crossAppMessageSchema.safeParse(event.data)
      if (!parsed.success) return
      const message = parsed.data
      if (message.state !== state) return finish(new LatchkeyError('CROSS_APP_STATE_MISMATCH'))
      if (message.result === 'rejected') return finish(new LatchkeyError('CROSS_APP_REJECTED'))
      if (message.result === 'error') {
        const code = KNOWN_ERRORS.includes(message.code) ? (message.code as ErrorCode) : null
        return finish(new LatchkeyError(code ?? 'CROSS_APP_CONNECT_FAILED'))
      }
      finish(null, message)
    }
    const onAbort = () => finish(new LatchkeyError('CROSS_APP_CANCELED'))
    const poll = setInterval(() => {
      if (popup.closed) finish(new LatchkeyError('CROSS_APP_CANCELED'))
    }, pollMs)
    const timer = setTimeout(() => finish(new LatchkeyError('CROSS_APP_TIMEOUT')), timeoutMs)
    target.addEventListener('message', onMessage)
    signal?.addEventListener('abort', onAbort)
  })
}
