import { canonicalEntropyId, EnclaveError } from '@latchkey/protocol/keys'
import { argon2idAsync } from '@noble/hashes/argon2.js'
import { base64urlToBytes, bytesToBase64url } from './encoding.ts'

/**
 * argon2id parameters stored beside a password-sealed recovery share; the
 * same shape as protocol's `PasswordKdf` (schemas/wallet.ts).
 */
export type PasswordKdf = {
  algorithm: 'argon2id'
  /** base64url (no padding) of ≥ 16 random bytes. */
  salt: string
  memory_kib: number
  iterations: number
  parallelism: number
}

/** The floor every password KDF must meet (security bar 9, OWASP Password Storage). */
export const PASSWORD_KDF_MINIMUM = {
  memory_kib: 19_456,
  iterations: 2,
  parallelism: 1,
  saltBytes: 16,
} as const

// Upper bounds mirror protocol's passwordKdfSchema, so stored parameters cannot
// make the enclave allocate gigabytes or spin for minutes.
const PASSWORD_KDF_MAXIMUM = {
  memory_kib: 1_048_576,
  iterations: 20,
  parallelism: 8,
  saltBytes: 64,
}

const RECOVERY_KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * A new random recovery key (32 bytes from `crypto.getRandomValues`): kept in
 * the user's cloud app-data folder, or by the server for automatic recovery.
 *
 * @example
 * ```ts
 * const key = generateRecoveryKey()
 * const ciphertext = await sealRecoveryShare(deviceShare, key, entropyId)
 * ```
 */
export function generateRecoveryKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(RECOVERY_KEY_BYTES))
}

async function importAesKey(key: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  if (!(key instanceof Uint8Array) || key.length !== RECOVERY_KEY_BYTES) {
    throw new EnclaveError('INVALID_KEY', 'A recovery key is 32 bytes (AES-256)')
  }
  return crypto.subtle.importKey('raw', Uint8Array.from(key), 'AES-GCM', false, [usage])
}

function additionalData(entropyId: string): Uint8Array<ArrayBuffer> {
  if (typeof entropyId !== 'string' || entropyId.length === 0) {
    throw new EnclaveError('ENTROPY_ID_MISMATCH', 'An entropy id is required')
  }
  return new TextEncoder().encode(canonicalEntropyId(entropyId))
}

/**
 * Seals the device share into the recovery share: AES-256-GCM under the
 * recovery key with a fresh 12-byte IV and the entropy id as associated data,
 * so a ciphertext moved to another wallet does not open. Returns
 * base64url(iv ‖ ciphertext ‖ tag).
 *
 * @example
 * ```ts
 * const ciphertext = await sealRecoveryShare(deviceShare, recoveryKey, entropyId)
 * ```
 */
export async function sealRecoveryShare(
  deviceShare: Uint8Array,
  key: Uint8Array,
  entropyId: string,
): Promise<string> {
  if (!(deviceShare instanceof Uint8Array) || deviceShare.length < 2) {
    throw new EnclaveError('SHARE_MISMATCH', 'A device share is at least 2 bytes')
  }
  const cryptoKey = await importAesKey(key, 'encrypt')
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(entropyId), tagLength: 128 },
      cryptoKey,
      Uint8Array.from(deviceShare),
    ),
  )
  const out = new Uint8Array(IV_BYTES + sealed.length)
  out.set(iv)
  out.set(sealed, IV_BYTES)
  return bytesToBase64url(out)
}

/**
 * Opens a recovery share sealed by {@link sealRecoveryShare}. A tampered
 * ciphertext, a wrong key or a wrong entropy id all throw `DECRYPTION_FAILED`
 * (security bar 45).
 *
 * @example
 * ```ts
 * const deviceShare = await openRecoveryShare(material.ciphertext, recoveryKey, entropyId)
 * ```
 */
export async function openRecoveryShare(
  ciphertext: string,
  key: Uint8Array,
  entropyId: string,
): Promise<Uint8Array> {
  const cryptoKey = await importAesKey(key, 'decrypt')
  let bytes: Uint8Array
  try {
    bytes = base64urlToBytes(ciphertext)
  } catch (cause) {
    throw new EnclaveError('DECRYPTION_FAILED', 'The recovery share is not base64url', { cause })
  }
  if (bytes.length < IV_BYTES + TAG_BYTES + 2) {
    throw new EnclaveError('DECRYPTION_FAILED', 'The recovery share is too short')
  }
  const aad = additionalData(entropyId)
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES), additionalData: aad, tagLength: 128 },
      cryptoKey,
      bytes.slice(IV_BYTES),
    )
    return new Uint8Array(plain)
  } catch (cause) {
    throw new EnclaveError('DECRYPTION_FAILED', 'The recovery share did not open', { cause })
  }
}

/**
 * Fresh argon2id parameters for a new password-sealed recovery share: a
 * 16-byte random salt and m = 19 MiB, t = 2, p = 1 (security bar 9).
 *
 * @example
 * ```ts
 * const kdf = newPasswordKdf()
 * const key = await derivePasswordKey(password, kdf)
 * // store { method: 'user-passcode', ciphertext, kdf }
 * ```
 */
export function newPasswordKdf(): PasswordKdf {
  const salt = crypto.getRandomValues(new Uint8Array(PASSWORD_KDF_MINIMUM.saltBytes))
  return {
    algorithm: 'argon2id',
    salt: bytesToBase64url(salt),
    memory_kib: PASSWORD_KDF_MINIMUM.memory_kib,
    iterations: PASSWORD_KDF_MINIMUM.iterations,
    parallelism: PASSWORD_KDF_MINIMUM.parallelism,
  }
}

function inRange(value: unknown, min: number, max: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
}

/**
 * Derives the 32-byte password recovery key with argon2id. The password is
 * used exactly as given: its UTF-8 bytes, no trimming, no truncation, any
 * length (security bar 10). Parameters below the security bar (or above the
 * protocol's bounds) are refused with `INVALID_KDF`, so a tampered record
 * cannot downgrade the work factor. Runs asynchronously, yielding to the page.
 *
 * @example
 * ```ts
 * const key = await derivePasswordKey('correct horse battery staple', kdf)
 * const deviceShare = await openRecoveryShare(ciphertext, key, entropyId)
 * ```
 */
export async function derivePasswordKey(
  password: string,
  kdf: PasswordKdf,
  options: { onProgress?: (fraction: number) => void } = {},
): Promise<Uint8Array> {
  if (typeof password !== 'string' || password.length === 0) {
    throw new EnclaveError('INVALID_PASSWORD', 'A recovery password is required')
  }
  // NFKC (NIST SP 800-63B §5.1.1.2): the same password typed on another
  // keyboard or platform, composed or decomposed, derives the same key.
  const normalized = password.normalize('NFKC')
  const passwordBytes = new TextEncoder().encode(normalized)
  // Lone UTF-16 surrogates would be replaced by U+FFFD, so two passwords could collide.
  if (new TextDecoder().decode(passwordBytes) !== normalized) {
    throw new EnclaveError('INVALID_PASSWORD', 'The recovery password is not valid Unicode text')
  }
  if (kdf?.algorithm !== 'argon2id') {
    throw new EnclaveError('INVALID_KDF', 'The password KDF must be argon2id')
  }
  const min = PASSWORD_KDF_MINIMUM
  const max = PASSWORD_KDF_MAXIMUM
  if (
    !inRange(kdf.memory_kib, min.memory_kib, max.memory_kib) ||
    !inRange(kdf.iterations, min.iterations, max.iterations) ||
    !inRange(kdf.parallelism, min.parallelism, max.parallelism)
  ) {
    throw new EnclaveError('INVALID_KDF', 'The argon2id parameters are outside the allowed range')
  }
  let salt: Uint8Array
  try {
    salt = base64urlToBytes(kdf.salt)
  } catch (cause) {
    throw new EnclaveError('INVALID_KDF', 'The argon2id salt is not base64url', { cause })
  }
  if (salt.length < min.saltBytes || salt.length > max.saltBytes) {
    throw new EnclaveError('INVALID_KDF', 'The argon2id salt has 16 to 64 bytes')
  }
  try {
    return await argon2idAsync(passwordBytes, salt, {
      m: kdf.memory_kib,
      t: kdf.iterations,
      p: kdf.parallelism,
      dkLen: RECOVERY_KEY_BYTES,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    })
  } finally {
    passwordBytes.fill(0)
  }
}
