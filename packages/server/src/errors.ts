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

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? errorMessages[code].title)
    this.code = code
    this.status = errorStatus[code] ?? 500
    this.details = details
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message }
    if (this.details !== undefined) body.details = this.details
    return body
  }
}
