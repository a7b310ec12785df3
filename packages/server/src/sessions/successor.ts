import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto'
import type { Services } from '../http/context.ts'
import { pooledRandomBytes } from '../ids.ts'

/*
 * The successor of a rotated refresh token, kept so that a replay of the old
 * token inside the overlap window gets the same successor back rather than a
 * second live one (security bar 31: no fork of the family).
 *
 * Sealed with AES-256-GCM under key = HMAC-SHA256(K, old token), where K is
 * derived from the master key (purpose `refresh-successors`); the associated
 * data is the old token's hash, i.e. its row. The database holds only the old
 * token's SHA-256, so neither the database, nor the master key, nor both
 * together open it: that takes the old token itself, whose holder is exactly
 * who may receive the successor, and only through the server's window rules.
 * The successor stays 256 fresh CSPRNG bits (not derived from the old token).
 */

const PURPOSE = 'refresh-successors'
const VERSION = 'v1'

function keyFor(services: Services, token: string): Buffer {
  return createHmac('sha256', services.secrets.deriveKey(PURPOSE)).update(token).digest()
}

const aad = (tokenHash: string) => Buffer.from(`${PURPOSE}|${tokenHash}`)

/** Seals `successor` so that only `token` (whose hash is `tokenHash`) opens it. */
export function sealSuccessor(
  services: Services,
  token: string,
  tokenHash: string,
  successor: string,
): string {
  const iv = pooledRandomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keyFor(services, token), iv)
  cipher.setAAD(aad(tokenHash))
  const data = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()])
  return [VERSION, iv, data, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.')
}

/** Opens what {@link sealSuccessor} made; null when it is malformed, tampered or for another token. */
export function openSuccessor(
  services: Services,
  token: string,
  tokenHash: string,
  sealed: string,
): string | null {
  const [version, iv, data, tag] = sealed.split('.')
  if (version !== VERSION || !iv || data === undefined || !tag) return null
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFor(services, token),
      Buffer.from(iv, 'base64url'),
      // A full 16-byte tag only: GCM would otherwise accept truncated ones.
      { authTagLength: 16 },
    )
    decipher.setAAD(aad(tokenHash))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8')
  } catch {
    return null
  }
}
