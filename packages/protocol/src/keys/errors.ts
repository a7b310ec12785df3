/**
 * Stable codes for every failure of the enclave's key operations. They cross
 * the postMessage boundary, so callers `switch (error.code)` and never parse
 * messages. Messages never contain key material, shares or passwords
 * (security bar 50).
 */
export const EnclaveErrorCode = {
  /** Secret bytes have an unknown kind or the wrong length for their kind. */
  INVALID_SECRET: 'INVALID_SECRET',
  /** An imported private key is malformed or out of range. */
  INVALID_KEY: 'INVALID_KEY',
  /** A recovery phrase is not a valid 12-word BIP-39 English phrase. */
  INVALID_MNEMONIC: 'INVALID_MNEMONIC',
  /** A wallet index is not an integer in [0, 2^31), or not 0 for an imported key. */
  INVALID_INDEX: 'INVALID_INDEX',
  /** A derivation path is malformed (SLIP-10 ed25519 allows hardened steps only). */
  INVALID_PATH: 'INVALID_PATH',
  /** The secret cannot produce an account on the requested chain (an imported key of the other chain). */
  CHAIN_MISMATCH: 'CHAIN_MISMATCH',
  /** A share is malformed, or two shares do not belong together. */
  SHARE_MISMATCH: 'SHARE_MISMATCH',
  /** The rebuilt secret does not derive the expected entropy id: never use it. */
  ENTROPY_ID_MISMATCH: 'ENTROPY_ID_MISMATCH',
  /** A sealed share did not open: tampered, wrong key, or wrong entropy id. */
  DECRYPTION_FAILED: 'DECRYPTION_FAILED',
  /** Password KDF parameters are not argon2id or are below the security bar. */
  INVALID_KDF: 'INVALID_KDF',
  /** The recovery password is empty or not a string. */
  INVALID_PASSWORD: 'INVALID_PASSWORD',
  /** A string is not base64url without padding. */
  INVALID_ENCODING: 'INVALID_ENCODING',
} as const
export type EnclaveErrorCode = (typeof EnclaveErrorCode)[keyof typeof EnclaveErrorCode]

/**
 * The one error the enclave's crypto core throws.
 *
 * @example
 * ```ts
 * try {
 *   await reconstructAndVerify(deviceShare, authShare, entropyId)
 * } catch (error) {
 *   if (error instanceof EnclaveError && error.code === 'ENTROPY_ID_MISMATCH') refuse()
 * }
 * ```
 */
export class EnclaveError extends Error {
  override readonly name = 'EnclaveError'
  readonly code: EnclaveErrorCode

  constructor(code: EnclaveErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}

/** True when `error` is an {@link EnclaveError}, optionally with the given code. */
export function isEnclaveError(error: unknown, code?: EnclaveErrorCode): error is EnclaveError {
  return error instanceof EnclaveError && (code === undefined || error.code === code)
}
