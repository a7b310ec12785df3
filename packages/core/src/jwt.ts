/** Claims the client reads from a token without verifying it (spec 01 §3 "Token fields read"). */
export interface TokenClaims {
  sub?: string
  exp?: number
  iss?: string
  aud?: string | string[]
  aid?: string
  sid?: string
}

/** Decodes a JWT's payload. The server verifies tokens; the client only reads expiry and audience. */
export function decodeJwt(token: string): TokenClaims | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/')
    const json = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='))
    const claims = JSON.parse(json)
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null
  } catch {
    return null
  }
}

/** True when the token expires within `marginMs` (tokens count as expired 30 s early). */
export function isExpired(claims: TokenClaims, now: number, marginMs: number): boolean {
  return typeof claims.exp !== 'number' || claims.exp * 1000 - marginMs <= now
}

/** The app id a token was issued for. */
export function tokenAppId(claims: TokenClaims): string | undefined {
  if (claims.aid) return claims.aid
  return Array.isArray(claims.aud) ? claims.aud[0] : claims.aud
}
