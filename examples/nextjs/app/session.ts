import { type AccessTokenClaims, verifyAccessToken } from '@latchkey/server/verify'
import { cookies } from 'next/headers'
import { latchkeyEnv } from './latchkey-env'

/**
 * The cookie the browser client keeps the access token in when the provider
 * has `accessTokenCookie: true` (docs/nextjs.md), and the one that marks
 * that a session may exist (a refresh token in the browser).
 */
const ACCESS_TOKEN_COOKIE = 'latchkey-token'
const SESSION_MARKER_COOKIE = 'latchkey-session'

export type ServerSession =
  | { status: 'authenticated'; claims: AccessTokenClaims }
  /** No valid access token, but the browser holds a session it can refresh: the client decides. */
  | { status: 'maybe' }
  | { status: 'unauthenticated' }

/**
 * The user's session as the server sees it while rendering: the access
 * token from the cookie, verified against the Latchkey server's published
 * keys (ES256, this app as audience, the server as issuer, not expired).
 * No call to the Latchkey server per render: jose caches its key set.
 */
export async function getServerSession(): Promise<ServerSession> {
  const jar = await cookies()
  const token = jar.get(ACCESS_TOKEN_COOKIE)?.value
  const { appId, apiUrl, issuer } = latchkeyEnv()
  if (token) {
    try {
      const claims = await verifyAccessToken(token, {
        appId,
        issuer,
        jwksUrl: `${apiUrl}/api/v1/apps/${appId}/jwks.json`,
      })
      return { status: 'authenticated', claims }
    } catch {
      // Expired, revoked key, another app's token: treated as no token.
    }
  }
  return jar.has(SESSION_MARKER_COOKIE) ? { status: 'maybe' } : { status: 'unauthenticated' }
}
