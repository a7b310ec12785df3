import type { AccessTokenClaims } from '@latchkey/protocol'
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, jwtVerify } from 'jose'

export interface VerifyAccessTokenOptions {
  /** Your app id: the token's audience. */
  appId: string
  /** The Latchkey server's issuer (its public URL). */
  issuer: string
  /** e.g. `https://auth.example.com/.well-known/jwks.json`; fetched and cached by jose. */
  jwksUrl?: string | URL
  /** A key set you already hold (instead of jwksUrl). */
  jwks?: JSONWebKeySet
  /** Allowed clock skew, seconds (default 0). */
  clockToleranceS?: number
  /** Clock for tests. */
  currentDate?: Date
}

const remoteSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>()

/**
 * Verifies a Latchkey access token in an app backend (security bar 27–29):
 * ES256 only (no `none`, no HS256 key confusion), header `typ` must be
 * `at+jwt` (so identity tokens are refused), keys only from the configured
 * JWKS (never from jku/x5u/jwk headers), iss/aud/exp checked.
 *
 * @example
 * import { verifyAccessToken } from '@latchkey/server/verify'
 * const claims = await verifyAccessToken(token, {
 *   appId: 'abcdefghijklmnopqrstuvwxy',
 *   issuer: 'https://auth.example.com',
 *   jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
 * })
 * claims.sub // the user id
 */
export async function verifyAccessToken(
  token: string,
  options: VerifyAccessTokenOptions,
): Promise<AccessTokenClaims> {
  let keys: ReturnType<typeof createLocalJWKSet> | ReturnType<typeof createRemoteJWKSet>
  if (options.jwks) keys = createLocalJWKSet(options.jwks)
  else if (options.jwksUrl) {
    const url = String(options.jwksUrl)
    let set = remoteSets.get(url)
    if (!set) {
      set = createRemoteJWKSet(new URL(url))
      remoteSets.set(url, set)
    }
    keys = set
  } else throw new TypeError('verifyAccessToken needs jwksUrl or jwks')
  const { payload } = await jwtVerify(token, keys, {
    algorithms: ['ES256'],
    typ: 'at+jwt',
    issuer: options.issuer,
    audience: options.appId,
    requiredClaims: ['sub', 'sid', 'exp', 'iat'],
    ...(options.clockToleranceS !== undefined ? { clockTolerance: options.clockToleranceS } : {}),
    ...(options.currentDate ? { currentDate: options.currentDate } : {}),
  })
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string')
    throw new Error('Malformed access token')
  return payload as unknown as AccessTokenClaims
}

export type { AccessTokenClaims }
