import { type ErrorBody, ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { EnclaveError } from '@latchkey/protocol/keys'

/** What a server refusal adds to a {@link PageError}. */
export interface PageErrorExtra {
  /** The server's `details` (e.g. MFA_REQUIRED's `{ mfa_methods }`), passed on to the host. */
  details?: unknown
  /** The server's `retry_after`: whole seconds until it accepts the request again. */
  retryAfter?: number
  /** The HTTP status of the server answer (none for the page's own errors). */
  status?: number
}

/** An error the page answers with: a protocol error code and a message without secrets. */
export class PageError extends Error {
  override readonly name = 'PageError'
  readonly details: unknown
  readonly retryAfter: number | undefined
  readonly status: number | undefined
  constructor(
    readonly code: ErrorCode,
    message?: string,
    extra: PageErrorExtra = {},
  ) {
    super(message ?? errorMessages[code].title)
    this.details = extra.details
    this.retryAfter = extra.retryAfter
    this.status = extra.status
  }
}

const knownCodes = new Set<string>(Object.values(ErrorCode))

/**
 * Crypto-core codes → protocol codes. A wrong recovery password surfaces as
 * `INVALID_RECOVERY_PASSWORD` (mapped where the password is used, since a
 * failed decryption is only a wrong password on that path).
 */
const fromEnclaveCode: Record<string, ErrorCode> = {
  INVALID_KEY: 'INVALID_PAYLOAD',
  INVALID_MNEMONIC: 'INVALID_PAYLOAD',
  INVALID_INDEX: 'INVALID_PAYLOAD',
  INVALID_PATH: 'INVALID_PAYLOAD',
  INVALID_ENCODING: 'INVALID_PAYLOAD',
  CHAIN_MISMATCH: 'INVALID_PAYLOAD',
  INVALID_PASSWORD: 'INVALID_RECOVERY_PASSWORD',
  SHARE_MISMATCH: 'INTERNAL_ERROR',
  ENTROPY_ID_MISMATCH: 'INTERNAL_ERROR',
  INVALID_SECRET: 'INTERNAL_ERROR',
  INVALID_KDF: 'INTERNAL_ERROR',
  DECRYPTION_FAILED: 'INTERNAL_ERROR',
}

/**
 * The `{ code, message }` of any failure, plus a server refusal's `details`
 * and `retry_after` as the server sent them (the host reads MFA_REQUIRED's
 * `details.mfa_methods` and MFA_MAX_ATTEMPTS's `retry_after`). Unknown
 * failures become INTERNAL_ERROR without details.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof PageError) {
    const body: ErrorBody = { code: error.code, message: error.message }
    if (error.details !== undefined) body.details = error.details
    if (error.retryAfter !== undefined) body.retry_after = error.retryAfter
    return body
  }
  if (error instanceof EnclaveError) {
    const code = fromEnclaveCode[error.code] ?? 'INTERNAL_ERROR'
    // Crypto-core messages never contain key material (its errors.ts).
    return { code, message: error.message }
  }
  return { code: 'INTERNAL_ERROR', message: errorMessages.INTERNAL_ERROR.title }
}

/**
 * Reads a server error body `{ code, message, details?, retry_after? }`;
 * anything else is INTERNAL_ERROR. `details` (a JSON object) and
 * `retry_after` (whole seconds) are kept for the host: the server's error
 * bodies are public by its contract (the same shape every route answers the
 * host with) and never carry key material.
 */
export function serverError(status: number, body: unknown): PageError {
  const {
    code,
    message,
    details,
    retry_after: retryAfter,
  } = (body ?? {}) as {
    code?: unknown
    message?: unknown
    details?: unknown
    retry_after?: unknown
  }
  if (typeof code === 'string' && knownCodes.has(code))
    return new PageError(code as ErrorCode, typeof message === 'string' ? message : undefined, {
      status,
      ...(details !== null && typeof details === 'object' && !Array.isArray(details)
        ? { details }
        : {}),
      ...(Number.isSafeInteger(retryAfter) && (retryAfter as number) >= 0
        ? { retryAfter: retryAfter as number }
        : {}),
    })
  if (status === 401) return new PageError('UNAUTHORIZED', undefined, { status })
  return new PageError('INTERNAL_ERROR', `The server answered ${status}`, { status })
}

/** Which failures of one operation answer another code: by code, or `unexpected` for any non-PageError. */
export type FailureNames = { [K in ErrorCode | 'unexpected']?: ErrorCode }

/**
 * Runs `step`, answering its failures with the names spec 02 §8 / spec 03 §8
 * give them where `names` says so (e.g. a recovery whose server data is gone
 * is 'Wallet data is missing', not 'Embedded wallet not found'). The message
 * becomes the new code's wording; other failures pass unchanged.
 */
export async function naming<T>(names: FailureNames, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    const code = names[error instanceof PageError ? error.code : 'unexpected']
    if (code) throw new PageError(code)
    throw error
  }
}
