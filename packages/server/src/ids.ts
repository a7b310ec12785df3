import { createHash, randomBytes, randomInt } from 'node:crypto'
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
/** Row ids: 128 random bits, base64url. */
export const newId = (): string => randomBytes(16).toString('base64url')
/** Opaque bearer secrets (refresh tokens, app secrets): 256 random bits. */
export const newSecret = (): string => randomBytes(32).toString('base64url')
/** A numeric one-time code from the CSPRNG (security bar 1). */
export const newNumericCode = (): string =>
  String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0')

export const sha256 = (value: string): string =>
  createHash('sha256').update(value).digest('base64url')
