import { type KeyObject, sign } from 'node:crypto'
import type { AccessTokenClaims, LinkedAccountWire } from '@latchkey/protocol'
import { decodeJwt, jwtVerify } from 'jose'
import type { Services } from '../http/context.ts'

/** Header `typ` values: explicit types keep one token kind from passing as another (RFC 8725 §3.11). */
export const ACCESS_TOKEN_TYP = 'at+jwt'
export const IDENTITY_TOKEN_TYP = 'id+jwt'

const seconds = (ms: number) => Math.floor(ms / 1000)

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

/**
 * Compact JWS, ES256 (RFC 7515, RFC 7518 §3.4: the signature is r‖s, not
 * DER). Signed through node:crypto synchronously: five times cheaper than
 * WebCrypto's job queue, and every login and refresh signs twice.
 * Verification stays with jose.
 */
function signEs256(header: { typ: string; kid: string }, payload: object, key: KeyObject): string {
  const input = `${base64url({ alg: 'ES256', ...header })}.${base64url(payload)}`
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
  return `${input}.${signature.toString('base64url')}`
}

/** Claims every Latchkey token carries: who, for which app, from which issuer, until when. */
function standardClaims(services: Services, userId: string, appId: string) {
  const iat = seconds(services.now())
  const exp = iat + services.config.sessions.accessTokenTtlS
  return { sub: userId, aud: appId, iss: services.config.issuer, iat, exp }
}

export async function signAccessToken(
  services: Services,
  claims: { userId: string; appId: string; sessionId: string },
): Promise<string> {
  const { kid, key } = await services.keys.signingKey()
  return signEs256(
    { typ: ACCESS_TOKEN_TYP, kid },
    { sid: claims.sessionId, ...standardClaims(services, claims.userId, claims.appId) },
    key,
  )
}

/** Identity token: who the user is and their linked accounts (JSON string claim), for the app's backend. */
export async function signIdentityToken(
  services: Services,
  claims: { userId: string; appId: string; linkedAccounts: LinkedAccountWire[] },
): Promise<string> {
  const { kid, key } = await services.keys.signingKey()
  return signEs256(
    { typ: IDENTITY_TOKEN_TYP, kid },
    {
      linked_accounts: JSON.stringify(claims.linkedAccounts),
      ...standardClaims(services, claims.userId, claims.appId),
    },
    key,
  )
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

/**
 * The session id (`sid`) of an access token this server has just signed, read
 * without verifying it: only for a token in hand from `signAccessToken`
 * (the login routes' answer, http/route.ts), never for one a client sent.
 *
 * @example
 * const sessionId = sessionIdOfOwnNewAccessToken(authResponse.token)
 */
export function sessionIdOfOwnNewAccessToken(token: string): string {
  const { sid } = decodeJwt(token)
  if (typeof sid !== 'string') throw new Error('The access token has no session id')
  return sid
}
