import { createHmac, randomBytes } from 'node:crypto'

/*
 * Standard Webhooks signatures (https://www.standardwebhooks.com, spec
 * "Signature scheme"): `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`,
 * keyed with the secret's bytes: the base64 after `whsec_`. Node's crypto
 * only, so app backends can verify without the rest of the server.
 */

/** The prefix of a signing secret (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_'

/** A new signing secret: `whsec_` + base64 of 32 CSPRNG bytes. */
export const newWebhookSecret = (): string =>
  `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`

/** The key bytes of a secret, with or without the `whsec_` prefix; null when it is not base64 of 24–64 bytes. */
export function secretKey(secret: string): Buffer | null {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null
  const key = Buffer.from(text, 'base64')
  return key.length >= 24 && key.length <= 64 ? key : null
}

/**
 * The `v1,<base64>` signature of one message.
 *
 * @example
 * const signature = signWebhook(secret, 'msg_…', 1893456000, '{"type":"user.created",…}')
 */
export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): string {
  const key = secretKey(secret)
  if (!key) throw new Error('Malformed webhook secret')
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body)
  return `v1,${mac.digest('base64')}`
}
