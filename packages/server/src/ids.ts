import { createHash, randomBytes, randomFillSync, randomInt } from 'node:crypto'
import { APP_ID_LENGTH, CODE_LENGTH } from '@latchkey/protocol'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** `length` lowercase alphanumerics from the CSPRNG (unbiased: randomInt rejects out-of-range draws). */
export function randomAlphanumeric(length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return out
}

/** App ids and user-id suffixes: 25 characters, ~129 bits. */
export const newAppId = (): string => randomAlphanumeric(APP_ID_LENGTH)
export const newUserId = (): string => `did:latchkey:${randomAlphanumeric(APP_ID_LENGTH)}`
/** Bytes the pool holds: one CSPRNG call per 4 KB. */
export const RANDOM_POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let taken = 0

/**
 * `size` bytes from node:crypto's CSPRNG, drawn from a pool that is refilled
 * 4 KB at a time (`randomFillSync`): one call into OpenSSL per 4 KB instead of
 * one per id, which costs ~5 µs on a VM (node:crypto's `randomUUID` pools the
 * same way). Each byte is handed out once, as a copy.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (size > RANDOM_POOL_BYTES) return randomBytes(size)
  if (taken + size > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafeSlow(RANDOM_POOL_BYTES))
    taken = 0
  }
  const bytes = Buffer.from(pool.subarray(taken, taken + size))
  taken += size
  return bytes
}

/**
 * Row ids: 128 random bits, base64url, never starting with '-' (the CLI takes
 * ids as arguments, and an argument starting with '-' is read as an option;
 * one draw in 64 is redrawn).
 */
export function newId(): string {
  for (;;) {
    const id = pooledRandomBytes(16).toString('base64url')
    if (id[0] !== '-') return id
  }
}
/** Opaque bearer secrets (refresh tokens, app secrets): 256 random bits. */
export const newSecret = (): string => pooledRandomBytes(32).toString('base64url')
/** A numeric one-time code from the CSPRNG (security bar 1). */
export const newNumericCode = (): string =>
  String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0')

export const sha256 = (value: string): string =>
  createHash('sha256').update(value).digest('base64url')
