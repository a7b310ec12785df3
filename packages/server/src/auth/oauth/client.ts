import type { OAuthProvider, OAuthTokens } from '@latchkey/protocol'
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose'
import { z } from 'zod'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import type { OAuthProfile, OAuthProviderSpec } from './providers.ts'

/*
 * The server side of a provider: authorization URL, code exchange (RFC 6749
 * §4.1.3 with the PKCE verifier) and the identity (verified id_token or the
 * user endpoint). Nothing here logs a code, verifier, secret or token.
 */

/** How long a call to a provider may take before it counts as unreachable. */
export const OAUTH_PROVIDER_TIMEOUT_MS = 10_000

export interface OAuthClientCredentials {
  client_id: string
  client_secret: string
}

/** The provider's authorization URL for one redirect. */
export function authorizationUrl(
  spec: OAuthProviderSpec,
  credentials: OAuthClientCredentials,
  params: { redirectTo: string; state: string; codeChallenge: string; nonce: string },
): string {
  const url = new URL(spec.endpoints.authorizationUrl)
  url.searchParams.set(spec.clientIdParam ?? 'client_id', credentials.client_id)
  url.searchParams.set('redirect_uri', params.redirectTo)
  url.searchParams.set('response_type', 'code')
  if (spec.scopes.length > 0)
    url.searchParams.set('scope', spec.scopes.join(spec.scopeSeparator ?? ' '))
  url.searchParams.set('state', params.state)
  if (spec.pkce) {
    url.searchParams.set('code_challenge', params.codeChallenge)
    url.searchParams.set('code_challenge_method', 'S256')
  }
  if (spec.identity === 'id_token') url.searchParams.set('nonce', params.nonce)
  for (const [key, value] of Object.entries(spec.authorizeParams ?? {}))
    url.searchParams.set(key, value)
  return url.href
}

const unreachable = (spec: OAuthProviderSpec) =>
  new ApiError('OAUTH_PROVIDER_ERROR', `${spec.name} could not be reached`)

/**
 * Spec 01 §8 'account suspended, try another method'. No provider has a
 * standard code for it; a refusal whose text names a suspension is one
 * (GitHub's API answers a suspended user 403 "Sorry. Your account was
 * suspended."; X's "Your account is suspended…").
 */
const saysSuspended = (json: unknown) => /suspend/i.test(JSON.stringify(json ?? ''))

const suspended = (services: Pick<Services, 'logger'>, spec: OAuthProviderSpec) => {
  services.logger.warn(`oauth: ${spec.name} says the account is suspended`)
  return new ApiError('OAUTH_ACCOUNT_SUSPENDED')
}

async function call(
  services: Pick<Services, 'logger'>,
  spec: OAuthProviderSpec,
  url: string,
  init: RequestInit,
): Promise<{ status: number; json: unknown }> {
  let response: Response
  try {
    response = await fetch(url, {
      ...init,
      // A request carrying the client secret or a token is never replayed elsewhere.
      redirect: 'error',
      signal: AbortSignal.timeout(OAUTH_PROVIDER_TIMEOUT_MS),
    })
  } catch (error) {
    const kind = (error as Error | null)?.name === 'TimeoutError' ? 'timed out' : 'failed'
    services.logger.warn(`oauth: the call to ${spec.name} at ${new URL(url).origin} ${kind}`)
    throw unreachable(spec)
  }
  let json: unknown
  try {
    json = JSON.parse(await response.text())
  } catch {
    json = undefined
  }
  return { status: response.status, json }
}

const tokenSchema = z.object({
  access_token: z.string().min(1).max(8192),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().int().nonnegative().optional(),
  refresh_token: z.string().max(8192).optional(),
  /** GitHub, LinkedIn: `refresh_token_expires_in`; TikTok: `refresh_expires_in`. */
  refresh_token_expires_in: z.coerce.number().int().nonnegative().optional(),
  refresh_expires_in: z.coerce.number().int().nonnegative().optional(),
  scope: z.string().max(4096).optional(),
  id_token: z.string().max(16384).optional(),
})

const errorSchema = z.object({ error: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) })

export interface ProviderTokenSet {
  accessToken: string
  idToken: string | undefined
  tokens: Omit<OAuthTokens, 'provider'>
}

/**
 * Exchanges the code at the token endpoint with the app's client secret
 * (post or basic, per provider) and the verifier. A refusal (an OAuth
 * `error`, whatever the status: GitHub answers 200) is 400
 * OAUTH_INVALID_CODE, or 403 OAUTH_ACCOUNT_SUSPENDED when it names a
 * suspension; an unreachable provider or a 5xx is 424 OAUTH_PROVIDER_ERROR.
 */
export async function exchangeCode(
  services: Pick<Services, 'logger'>,
  spec: OAuthProviderSpec,
  credentials: OAuthClientCredentials,
  params: { code: string; codeVerifier: string; redirectTo: string; appId: string },
): Promise<ProviderTokenSet> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: params.code,
    redirect_uri: params.redirectTo,
  })
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  }
  if (spec.tokenAuth === 'client_secret_basic') {
    const enc = (v: string) => encodeURIComponent(v)
    headers.authorization = `Basic ${Buffer.from(`${enc(credentials.client_id)}:${enc(credentials.client_secret)}`).toString('base64')}`
  } else {
    body.set(spec.clientIdParam ?? 'client_id', credentials.client_id)
    body.set('client_secret', credentials.client_secret)
  }
  if (spec.pkce) body.set('code_verifier', params.codeVerifier)
  const { status, json } = await call(services, spec, spec.endpoints.tokenUrl, {
    method: 'POST',
    headers,
    body,
  })
  const refusal = errorSchema.safeParse(json)
  if (status >= 500 || (status !== 200 && !refusal.success)) {
    services.logger.warn(`oauth: ${spec.name} token endpoint answered HTTP ${status}`)
    throw unreachable(spec)
  }
  if (refusal.success) {
    if (saysSuspended(json)) throw suspended(services, spec)
    services.logger.warn(
      `oauth: ${spec.name} refused a code exchange for app ${params.appId} (${refusal.data.error})`,
    )
    throw new ApiError('OAUTH_INVALID_CODE')
  }
  const token = tokenSchema.safeParse(json)
  if (!token.success) {
    services.logger.warn(`oauth: ${spec.name} answered the code exchange unexpectedly`)
    throw new ApiError('OAUTH_PROVIDER_ERROR', `${spec.name} answered unexpectedly`)
  }
  const t = token.data
  return {
    accessToken: t.access_token,
    idToken: t.id_token,
    tokens: {
      access_token: t.access_token,
      access_token_expires_in_seconds: t.expires_in ?? null,
      refresh_token: t.refresh_token ?? null,
      refresh_token_expires_in_seconds: t.refresh_token_expires_in ?? t.refresh_expires_in ?? null,
      scopes: (t.scope ?? '').split(/[ ,]+/).filter(Boolean),
    },
  }
}

const jwksCache = new Map<string, JWTVerifyGetKey>()

function remoteJwks(url: string): JWTVerifyGetKey {
  let jwks = jwksCache.get(url)
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: OAUTH_PROVIDER_TIMEOUT_MS })
    jwksCache.set(url, jwks)
  }
  return jwks
}

/**
 * Verifies an OIDC id_token (security bar 13): signature against the
 * provider's JWKS only (no header-supplied keys), asymmetric algorithms only,
 * exact issuer, audience = the app's client id, unexpired, and the nonce of
 * this login. Any failure is 400 OAUTH_INVALID_CODE.
 */
export async function verifyIdToken(
  services: Pick<Services, 'logger' | 'now'>,
  spec: OAuthProviderSpec,
  idToken: string | undefined,
  params: { clientId: string; nonce: string },
): Promise<Record<string, unknown>> {
  const { issuer, jwksUrl } = spec.endpoints
  if (!issuer || !jwksUrl)
    throw new Error(`${spec.name}: id_token identity needs issuer and jwksUrl`)
  if (!idToken) throw new ApiError('OAUTH_INVALID_CODE')
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(idToken, remoteJwks(jwksUrl), {
      issuer,
      audience: params.clientId,
      algorithms: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      currentDate: new Date(services.now()),
      clockTolerance: 60,
    }))
  } catch (error) {
    const code = (error as { code?: string } | null)?.code ?? 'invalid'
    if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC') {
      services.logger.warn(`oauth: ${spec.name} keys could not be fetched (${code})`)
      throw unreachable(spec)
    }
    services.logger.warn(`oauth: ${spec.name} id_token rejected (${code})`)
    throw new ApiError('OAUTH_INVALID_CODE')
  }
  if (payload.nonce !== params.nonce) {
    services.logger.warn(`oauth: ${spec.name} id_token nonce mismatch`)
    throw new ApiError('OAUTH_INVALID_CODE')
  }
  return payload
}

const emailsSchema = z.array(
  z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }),
)

/**
 * Calls the user endpoint (and GitHub's emails) with the access token. A
 * 401/403 naming a suspension is 403 OAUTH_ACCOUNT_SUSPENDED.
 */
export async function fetchUserinfo(
  services: Pick<Services, 'logger'>,
  spec: OAuthProviderSpec,
  accessToken: string,
): Promise<{ data: Record<string, unknown>; verifiedPrimaryEmail: string | null }> {
  const { userinfoUrl, emailsUrl } = spec.endpoints
  if (!userinfoUrl) throw new Error(`${spec.name}: userinfo identity needs userinfoUrl`)
  const headers = {
    authorization: `Bearer ${accessToken}`,
    accept: 'application/json',
    'user-agent': 'latchkey',
  }
  const { status, json } = await call(services, spec, userinfoUrl, { headers })
  if ((status === 401 || status === 403) && saysSuspended(json)) throw suspended(services, spec)
  if (status !== 200 || !json || typeof json !== 'object') {
    services.logger.warn(`oauth: ${spec.name} user endpoint answered HTTP ${status}`)
    throw new ApiError('OAUTH_PROVIDER_ERROR', `${spec.name} did not return the user`)
  }
  let verifiedPrimaryEmail: string | null = null
  if (emailsUrl) {
    const emails = await call(services, spec, emailsUrl, { headers })
    const parsed = emailsSchema.safeParse(emails.json)
    // Missing scope or an error: no email, the login still works (keyed by subject).
    if (emails.status === 200 && parsed.success)
      verifiedPrimaryEmail =
        parsed.data.find((e) => e.primary && e.verified)?.email.toLowerCase() ?? null
  }
  return { data: json as Record<string, unknown>, verifiedPrimaryEmail }
}

/** The identity of the account behind a token set, per the provider's spec. */
export async function identify(
  services: Pick<Services, 'logger' | 'now'>,
  spec: OAuthProviderSpec,
  provider: OAuthProvider,
  tokenSet: ProviderTokenSet,
  params: { clientId: string; nonce: string },
): Promise<OAuthProfile> {
  let profile: OAuthProfile | null
  if (spec.identity === 'id_token') {
    profile = spec.profile(await verifyIdToken(services, spec, tokenSet.idToken, params))
  } else {
    const info = await fetchUserinfo(services, spec, tokenSet.accessToken)
    profile = spec.profile(info.data)
    if (profile && !profile.email && info.verifiedPrimaryEmail)
      profile = { ...profile, email: info.verifiedPrimaryEmail }
  }
  if (!profile || profile.subject.length > 255) {
    services.logger.warn(`oauth: ${provider} returned no usable subject`)
    throw new ApiError('OAUTH_PROVIDER_ERROR', `${spec.name} did not return the user`)
  }
  return profile
}
