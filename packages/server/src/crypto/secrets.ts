import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'

/** Purposes keys are derived for; the label is the HKDF `info`, so keys never overlap. */
export type KeyPurpose =
  | 'signing-keys'
  | 'otp-codes'
  | 'auth-shares'
  | 'totp-secrets'
  | 'recovery-keys'
  | 'provider-credentials'
  | 'recovery-oauth-states'
  | 'webhook-secrets'
  | (string & {})

const VERSION = 'v1'

/** Parses a 32-byte master key written as 64 hex characters or base64/base64url. */
export function parseMasterKey(value: string | Uint8Array): Buffer {
  if (typeof value !== 'string') {
    if (value.length !== 32) throw new Error('The master key must be 32 bytes')
    return Buffer.from(value)
  }
  const trimmed = value.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64')
  if (bytes.length !== 32)
    throw new Error('LATCHKEY_MASTER_KEY must be 32 bytes, written as 64 hex characters or base64')
  return bytes
}

/**
 * Secrets at rest (security bar 45): AES-256-GCM under a key derived from the
 * master key with HKDF-SHA256 (info = purpose label), the record id bound as
 * associated data so a ciphertext moved to another row fails to decrypt.
 *
 * @example
 * const box = new SecretBox(masterKey)
 * const sealed = box.encrypt('auth-shares', walletId, share)
 * box.decrypt('auth-shares', walletId, sealed) // → share
 */
export class SecretBox {
  readonly #master: Buffer
  readonly #keys = new Map<string, Buffer>()

  constructor(masterKey: string | Uint8Array) {
    this.#master = parseMasterKey(masterKey)
  }

  /** A 32-byte key for one purpose. */
  deriveKey(purpose: KeyPurpose): Buffer {
    let key = this.#keys.get(purpose)
    if (!key) {
      key = Buffer.from(
        hkdfSync('sha256', this.#master, Buffer.alloc(0), `latchkey:${purpose}`, 32),
      )
      this.#keys.set(purpose, key)
    }
    return key
  }

  /** Encrypts `plaintext`; returns `v1.<iv>.<ciphertext>.<tag>` (base64url parts). */
  encrypt(purpose: KeyPurpose, recordId: string, plaintext: string | Uint8Array): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.deriveKey(purpose), iv)
    cipher.setAAD(Buffer.from(`${purpose}|${recordId}`))
    const data = Buffer.concat([cipher.update(plaintext), cipher.final()])
    const tag = cipher.getAuthTag()
    return [
      VERSION,
      iv.toString('base64url'),
      data.toString('base64url'),
      tag.toString('base64url'),
    ].join('.')
  }

  /** Decrypts what {@link encrypt} produced; throws on any tampering or a wrong record id. */
  decrypt(purpose: KeyPurpose, recordId: string, sealed: string): Buffer {
    const [version, iv, data, tag] = sealed.split('.')
    if (version !== VERSION || !iv || data === undefined || !tag)
      throw new Error('Malformed sealed secret')
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.deriveKey(purpose),
      Buffer.from(iv, 'base64url'),
    )
    decipher.setAAD(Buffer.from(`${purpose}|${recordId}`))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()])
  }

  /** HMAC-SHA256 under a purpose key, base64url. */
  mac(purpose: KeyPurpose, message: string): string {
    return createHmac('sha256', this.deriveKey(purpose)).update(message).digest('base64url')
  }
}

/** Constant-time equality of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
