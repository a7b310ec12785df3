import { combine, split } from 'shamir-secret-sharing'
import { sameEntropyId } from './address.ts'
import { entropyIdOf } from './derive.ts'
import { EnclaveError } from './errors.ts'
import { decodeSecret, encodeSecret, type WalletSecret } from './secret.ts'

/**
 * The two halves of a secret. Each is the encoded secret's length plus one
 * byte (the Shamir x-coordinate); either alone reveals nothing about the
 * secret (security bar 40).
 */
export type SecretShares = { deviceShare: Uint8Array; authShare: Uint8Array }

/**
 * Splits a secret 2-of-2 with Shamir over GF(256) (`shamir-secret-sharing`,
 * audited): the device share stays in the enclave's IndexedDB, the auth share
 * goes to the server.
 *
 * @example
 * ```ts
 * const { deviceShare, authShare } = await splitSecret(generateHdSecret())
 * ```
 */
export async function splitSecret(secret: WalletSecret): Promise<SecretShares> {
  const bytes = encodeSecret(secret)
  try {
    const [deviceShare, authShare] = await split(bytes, 2, 2)
    if (!deviceShare || !authShare) throw new Error('split returned fewer than 2 shares')
    return { deviceShare, authShare }
  } finally {
    bytes.fill(0)
  }
}

/**
 * Rebuilds a secret from its two shares. Malformed or mismatched shares throw
 * `SHARE_MISMATCH` (or `INVALID_SECRET` when they combine into garbage);
 * shares from different splits can still combine into a well-formed but wrong
 * secret, so callers holding an entropy id use {@link reconstructAndVerify}.
 *
 * @example
 * ```ts
 * const secret = await combineShares(deviceShare, authShare)
 * ```
 */
export async function combineShares(a: Uint8Array, b: Uint8Array): Promise<WalletSecret> {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array)) {
    throw new EnclaveError('SHARE_MISMATCH', 'Shares are bytes')
  }
  if (a.length < 2 || a.length !== b.length) {
    throw new EnclaveError('SHARE_MISMATCH', 'Shares of one secret have the same length')
  }
  if (a[a.length - 1] === b[b.length - 1]) {
    // Same x-coordinate: the same share twice, or shares of different splits.
    throw new EnclaveError('SHARE_MISMATCH', 'The two shares are not a pair')
  }
  let bytes: Uint8Array
  try {
    // Copies: the library checks `constructor === Uint8Array`, which a Buffer or
    // a Uint8Array from another realm fails.
    bytes = await combine([Uint8Array.from(a), Uint8Array.from(b)])
  } catch (cause) {
    throw new EnclaveError('SHARE_MISMATCH', 'The shares do not combine', { cause })
  }
  try {
    return decodeSecret(bytes)
  } finally {
    bytes.fill(0)
  }
}

/**
 * Rebuilds a secret and re-derives its entropy id; a mismatch throws
 * `ENTROPY_ID_MISMATCH`, so a wrong key is never returned (security.md "The
 * secret and its shares"). Any failure to rebuild is also an error, never a
 * fallback.
 *
 * @example
 * ```ts
 * const secret = await reconstructAndVerify(deviceShare, authShare, wallet.entropyId)
 * ```
 */
export async function reconstructAndVerify(
  deviceShare: Uint8Array,
  authShare: Uint8Array,
  expectedEntropyId: string,
): Promise<WalletSecret> {
  if (typeof expectedEntropyId !== 'string' || expectedEntropyId.length === 0) {
    throw new EnclaveError('ENTROPY_ID_MISMATCH', 'An entropy id is required to verify shares')
  }
  const secret = await combineShares(deviceShare, authShare)
  if (!sameEntropyId(entropyIdOf(secret), expectedEntropyId)) {
    secret.payload.fill(0)
    throw new EnclaveError('ENTROPY_ID_MISMATCH', 'The shares rebuild a different wallet')
  }
  return secret
}
