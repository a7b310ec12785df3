import { type ErrorBody, type ErrorCode, errorMessages, errorStatus } from '@latchkey/protocol'

/**
 * The one error type handlers throw. It renders as `{ code, message, details? }`
 * with the HTTP status protocol's `errorStatus` assigns to the code.
 *
 * @example
 * throw new ApiError('INVALID_CODE')
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly code: ErrorCode
  readonly status: number
  readonly details: unknown
  /** Whole seconds until a refused request (429) is accepted again, when that is known. */
  retryAfter: number | undefined

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? errorMessages[code].title)
    this.code = code
    this.status = errorStatus[code] ?? 500
    this.details = details
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message }
    if (this.details !== undefined) body.details = this.details
    if (this.retryAfter !== undefined) body.retry_after = this.retryAfter
    return body
  }

  /** The response's extra headers: `Retry-After` (RFC 9110 §10.2.3) with `retry_after`. */
  headers(): Record<string, string> {
    return this.retryAfter === undefined ? {} : { 'retry-after': String(this.retryAfter) }
  }
}

/**
 * A 429 (or any refusal) for a limit that lifts at `resetAt` (epoch ms): the
 * error carries `retry_after`, the whole seconds from `now` until then
 * (rounded up, at least 1), in its body and as the `Retry-After` header, so a
 * client can count down instead of guessing.
 *
 * @example
 * if (!result.allowed) throw limited('TOO_MANY_REQUESTS', result.resetAt, services.now())
 */
export function limited(code: ErrorCode, resetAt: number, now: number): ApiError {
  const error = new ApiError(code)
  error.retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000))
  return error
}
