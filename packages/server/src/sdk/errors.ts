import type { ErrorCode } from '@latchkey/protocol'

/** What the client itself reports: the server could not be reached, or did not answer in time. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT'

export interface LatchkeyApiErrorOptions {
  status: number
  details?: unknown
  retryAfter?: number
  cause?: unknown
}

/**
 * A refused or failed call of the server SDK. `code` is the server's stable
 * code (`INVALID_APP_SECRET`, `USER_DOES_NOT_EXIST`, `TOO_MANY_REQUESTS`…;
 * the catalogue in `@latchkey/protocol`), or `NETWORK_ERROR` / `TIMEOUT`
 * when no answer came (`status` 0).
 *
 * @example
 * try {
 *   await latchkey.deleteUser(userId)
 * } catch (error) {
 *   if (error instanceof LatchkeyApiError && error.code === 'USER_DOES_NOT_EXIST') return
 *   throw error
 * }
 */
export class LatchkeyApiError extends Error {
  override readonly name = 'LatchkeyApiError'
  readonly code: ErrorCode | ClientErrorCode
  /** The HTTP status; 0 when no answer came. */
  readonly status: number
  readonly details: unknown
  /** Seconds until a refused (429) call is accepted again, when the server said so. */
  readonly retryAfter: number | undefined

  constructor(
    code: ErrorCode | ClientErrorCode,
    message: string,
    options: LatchkeyApiErrorOptions,
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.status = options.status
    this.details = options.details
    this.retryAfter = options.retryAfter
  }
}
