import { userMessageLine } from '@latchkey/protocol/error-basics'
import type { ErrorCode, UserMessage } from '@latchkey/protocol/errors'
import { loadErrorMessages, loadedErrorMessages } from './error-messages.ts'

export interface LatchkeyErrorOptions {
  /** Extra technical detail, for logs and developers; never shown as the user message. */
  details?: unknown
  /** HTTP status, when the error came from the server. */
  status?: number
  /** Seconds until the server accepts the request again (a 429's `retry_after`). */
  retryAfter?: number
  /**
   * The server's message, when spec 01 §8 shows it to the user instead of the
   * catalogue's wording (see `userMessage`). The HTTP client sets it.
   */
  serverMessage?: string
  cause?: unknown
}

/**
 * The one error type `@latchkey/core` throws. `code` is stable (switch on it);
 * `userMessage` is what to show the user (the spec's wording for the code, or
 * the server's message where the spec says so); `shortMessage` is what the
 * server or the client said.
 *
 * Both wordings come from the catalogue, which is not part of the SDK's first
 * load (error-messages.ts): an error made before it arrived reads its code
 * until then (errors from the server and the enclave wait for it).
 *
 * @example
 * try { await flow.submitCode(code) } catch (error) {
 *   if (error instanceof LatchkeyError && error.code === 'INVALID_CODE') …
 * }
 */
export class LatchkeyError extends Error {
  override name = 'LatchkeyError' as const
  readonly code: ErrorCode
  readonly #shortMessage: string | undefined
  readonly details: unknown
  readonly status: number | undefined
  /**
   * Seconds until the server accepts this request again, when it said so (a
   * 429's `retry_after` or `Retry-After`): e.g. the resend cooldown's
   * countdown for RESEND_COOLDOWN.
   */
  readonly retryAfter: number | undefined
  /**
   * The server's message meant for the user (spec 01 §8): an HTTP 400 or 422
   * whose code the catalogue defers to the server for (`fromServer`, e.g.
   * CANNOT_LINK_MORE_OF_TYPE) or whose code this client does not know (a
   * newer server). Undefined otherwise: the catalogue's wording is shown.
   */
  readonly serverMessage: string | undefined

  constructor(code: ErrorCode, shortMessage?: string, options: LatchkeyErrorOptions = {}) {
    const message = shortMessage ?? loadedErrorMessages()?.[code]?.title
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.#shortMessage = message
    if (message === undefined) {
      // The catalogue has not arrived: read the wording when asked, and fetch it.
      Object.defineProperty(this, 'message', { get: () => this.shortMessage, configurable: true })
      loadErrorMessages().catch(() => {})
    }
    this.details = options.details
    this.status = options.status
    this.retryAfter = options.retryAfter
    this.serverMessage = options.serverMessage?.trim() || undefined
  }

  /** What the server or the client said: the catalogue's title for the code unless given. */
  get shortMessage(): string {
    return this.#shortMessage ?? loadedErrorMessages()?.[this.code]?.title ?? this.code
  }

  /**
   * The user-facing wording for this error (spec 01 §8): the server's message
   * when it carries one for the user (`serverMessage`), else the catalogue's.
   */
  get userMessage(): UserMessage {
    const catalogue = loadedErrorMessages()
    const entry = catalogue?.[this.code] ??
      catalogue?.INTERNAL_ERROR ?? { title: this.shortMessage }
    if (this.serverMessage === undefined) return entry
    return entry.retryable
      ? { title: this.serverMessage, retryable: true }
      : { title: this.serverMessage }
  }

  /**
   * The user-facing wording as one line, title then detail, for an inline
   * alert: "You can't remove your only login method. Link another login
   * method first."
   */
  get userMessageLine(): string {
    return userMessageLine(this.userMessage)
  }
}

/** Wraps anything thrown into a LatchkeyError (unknown errors become INTERNAL_ERROR). */
export function toLatchkeyError(error: unknown): LatchkeyError {
  if (error instanceof LatchkeyError) return error
  return new LatchkeyError('INTERNAL_ERROR', undefined, { cause: error })
}
