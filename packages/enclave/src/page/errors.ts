import { ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { EnclaveError } from '../errors.ts'

/** An error the page answers with: a protocol error code and a message without secrets. */
export class PageError extends Error {
  override readonly name = 'PageError'
  constructor(
    readonly code: ErrorCode,
    message?: string,
  ) {
    super(message ?? errorMessages[code].title)
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

/** The `{ code, message }` of any failure; unknown failures become INTERNAL_ERROR without details. */
export function toErrorBody(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof PageError) return { code: error.code, message: error.message }
  if (error instanceof EnclaveError) {
    const code = fromEnclaveCode[error.code] ?? 'INTERNAL_ERROR'
    // Crypto-core messages never contain key material (its errors.ts).
    return { code, message: error.message }
  }
  return { code: 'INTERNAL_ERROR', message: errorMessages.INTERNAL_ERROR.title }
}

/** Reads a server error body `{ code, message }`; anything else is INTERNAL_ERROR. */
export function serverError(status: number, body: unknown): PageError {
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && knownCodes.has(code))
    return new PageError(code as ErrorCode, typeof message === 'string' ? message : undefined)
  if (status === 401) return new PageError('UNAUTHORIZED')
  return new PageError('INTERNAL_ERROR', `The server answered ${status}`)
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
