import { createPrivateKey, type KeyObject, randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'

/** How long a CDP request JWT is valid: Coinbase documents 2 minutes. */
export const CDP_JWT_LIFETIME_S = 120

/** A CDP secret API key: its id or name (`kid`, `sub`) and its private key. */
export interface CdpApiKey {
  name: string
  /** An EC private key in PEM (ES256), or an Ed25519 key as base64 of seed + public key (EdDSA). */
  secret: string
}

/** The key object and JWS algorithm of a CDP key secret. */
export function cdpSigningKey(secret: string): { key: KeyObject; alg: 'ES256' | 'EdDSA' } {
  const text = secret.trim()
  if (text.startsWith('-----BEGIN')) return { key: createPrivateKey(text), alg: 'ES256' }
  const raw = Buffer.from(text, 'base64')
  if (raw.length !== 64) throw new Error('A CDP Ed25519 key secret is 64 bytes in base64')
  const jwk = {
    kty: 'OKP',
    crv: 'Ed25519',
    d: raw.subarray(0, 32).toString('base64url'),
    x: raw.subarray(32).toString('base64url'),
  }
  return { key: createPrivateKey({ key: jwk, format: 'jwk' }), alg: 'EdDSA' }
}

/**
 * The bearer JWT of one CDP REST call (docs.cdp.coinbase.com "JWT
 * authentication"): header `kid` = key name and a fresh `nonce`; claims
 * `iss: 'cdp'`, `sub` = key name, `nbf` now, `exp` 120 s later, and `uri`
 * binding it to one method, host and path (`POST api.developer.coinbase.com/onramp/v1/token`).
 *
 * @example
 * const jwt = await cdpJwt(key, { method: 'POST', url: 'https://api.developer.coinbase.com/onramp/v1/token', now: Date.now() })
 */
export async function cdpJwt(
  apiKey: CdpApiKey,
  request: { method: 'GET' | 'POST'; url: string; now: number },
): Promise<string> {
  const { key, alg } = cdpSigningKey(apiKey.secret)
  const url = new URL(request.url)
  const now = Math.floor(request.now / 1000)
  return new SignJWT({ uri: `${request.method} ${url.host}${url.pathname}` })
    .setProtectedHeader({
      alg,
      kid: apiKey.name,
      typ: 'JWT',
      nonce: randomBytes(16).toString('hex'),
    })
    .setIssuer('cdp')
    .setSubject(apiKey.name)
    .setNotBefore(now)
    .setExpirationTime(now + CDP_JWT_LIFETIME_S)
    .sign(key)
}
