import type { AccessTokenClaims, LinkedAccountWire } from '@latchkey/protocol'
import { jwtVerify, SignJWT } from 'jose'
import type { Services } from '../http/context.ts'

/** Header `typ` values: explicit types keep one token kind from passing as another (RFC 8725 §3.11). */
export const ACCESS_TOKEN_TYP = 'at+jwt'
export const IDENTITY_TOKEN_TYP = 'id+jwt'

const seconds = (ms: number) => Math.floor(ms / 1000)

export async function signAccessToken(
  services: Services,
  claims: { userId: string; appId: string; sessionId: string },
): Promise<string> {
  const { kid, key } = await services.keys.signingKey()
  const iat = seconds(services.now())
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'ES256', typ: ACCESS_TOKEN_TYP, kid })
    .setSubject(claims.userId)
    .setAudience(claims.appId)
    .setIssuer(services.config.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + services.config.sessions.accessTokenTtlS)
    .sign(key)
}

/** Identity token: who the user is and their linked accounts (JSON string claim), for the app's backend. */
export async function signIdentityToken(
  services: Services,
  claims: { userId: string; appId: string; linkedAccounts: LinkedAccountWire[] },
): Promise<string> {
  const { kid, key } = await services.keys.signingKey()
  const iat = seconds(services.now())
  return new SignJWT({ linked_accounts: JSON.stringify(claims.linkedAccounts) })
    .setProtectedHeader({ alg: 'ES256', typ: IDENTITY_TOKEN_TYP, kid })
    .setSubject(claims.userId)
    .setAudience(claims.appId)
    .setIssuer(services.config.issuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + services.config.sessions.accessTokenTtlS)
    .sign(key)
}

/** Verifies an access token against this server's own keys; throws on any defect. */
export async function verifyOwnAccessToken(
  services: Services,
  token: string,
  appId: string,
): Promise<AccessTokenClaims> {
  const { payload } = await jwtVerify(
    token,
    async (header) => {
      const key = await services.keys.verificationKey(header.kid)
      if (!key) throw new Error('Unknown key id')
      return key
    },
    {
      algorithms: ['ES256'],
      typ: ACCESS_TOKEN_TYP,
      issuer: services.config.issuer,
      audience: appId,
      currentDate: new Date(services.now()),
      requiredClaims: ['sub', 'sid', 'exp', 'iat'],
    },
  )
  if (typeof payload.sid !== 'string') throw new Error('No session id')
  return payload as unknown as AccessTokenClaims
}
