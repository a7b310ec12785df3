import type {
  OAuthAuthenticateRequest,
  OAuthAuthResponse,
  OAuthInitRequest,
  OAuthInitResponse,
  OAuthLinkRequest,
  OAuthProvider,
  UserWire,
} from '@latchkey/protocol'
import { getAppProviderCredentials } from '../../apps/credentials.ts'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError, limited } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { ipBucket } from '../../rate-limit/limit-per-ip.ts'
import { startSession } from '../../sessions/service.ts'
import {
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
} from '../../users/service.ts'
import { accountTransferOrRefusal } from '../../users/transfer.ts'
import { authorizationUrl, exchangeCode, identify } from './client.ts'
import { missingScopes, type OAuthProfile, providerSpec } from './providers.ts'
import {
  assertPkceVerifier,
  consumeOAuthLoginState,
  type OAuthStateBinding,
  oauthNonce,
  recordOAuthLoginState,
} from './state.ts'

/*
 * OAuth login, server side (docs/login-oauth.md, spec 01 §7): users are keyed
 * by (provider, subject) and never merged by email (security bar 14); the
 * linked account's type is the provider name.
 */

/** Redirects one client IP may start per app (unauthenticated init writes a row each). */
export const OAUTH_INITS_PER_IP = { limit: 60, windowMs: 10 * 60_000 }

export const CANNOT_LINK_MORE_OAUTH = 'You cannot authorize more than one account for this user.'

/** The app's client for `provider` when the app allows it; 403 LOGIN_METHOD_NOT_ALLOWED otherwise. */
async function usableClient(services: Services, app: AppRecord, provider: OAuthProvider) {
  // toAppConfig switches a provider off when the app has no client for it.
  if (!toAppConfig(app).login_methods[provider]) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
  const credentials = await getAppProviderCredentials(services, app.id, provider)
  if (!credentials) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
  return credentials
}

/**
 * `redirect_to` must be a page of one of the app's exact origins (security
 * bar 15): 403 ORIGIN_NOT_ALLOWED otherwise; no credentials or fragment
 * (RFC 6749 §3.1.2).
 */
function checkRedirectTo(app: AppRecord, redirectTo: string): string {
  const url = new URL(redirectTo)
  if (url.username || url.password || url.hash)
    throw new ApiError('INVALID_PAYLOAD', 'redirect_to must have no credentials or fragment')
  if (!app.allowedOrigins.includes(url.origin)) throw new ApiError('ORIGIN_NOT_ALLOWED')
  return url.href
}

/**
 * Starts a login (no user) or a link (`userId` of the signed-in caller):
 * records the state and answers the provider's authorization URL.
 */
export async function initOAuth(
  services: Services,
  app: AppRecord,
  caller: { userId: string | null; ip: string | undefined },
  input: OAuthInitRequest,
): Promise<OAuthInitResponse> {
  const redirectTo = checkRedirectTo(app, input.redirect_to)
  const credentials = await usableClient(services, app, input.provider)
  const limit = await services.limiter.hit(
    `oauth-init:${app.id}:${ipBucket(caller.ip)}`,
    OAUTH_INITS_PER_IP.limit,
    OAUTH_INITS_PER_IP.windowMs,
  )
  if (!limit.allowed) throw limited('TOO_MANY_REQUESTS', limit.resetAt, services.now())
  const intent = input.intent ?? 'login'
  await recordOAuthLoginState(
    services,
    { appId: app.id, provider: input.provider, intent, userId: caller.userId },
    { stateCode: input.state_code, redirectTo, codeChallenge: input.code_challenge },
  )
  const spec = providerSpec(input.provider, services.config.oauth)
  return {
    url: authorizationUrl(spec, credentials, {
      redirectTo,
      state: input.state_code,
      codeChallenge: input.code_challenge,
      nonce: oauthNonce(services, input.state_code),
    }),
  }
}

/**
 * Spends the state, checks the verifier, exchanges the code, checks that
 * every asked scope was granted (400 OAUTH_SCOPE_DENIED) and reads the
 * identity.
 */
async function completeProviderFlow(
  services: Services,
  app: AppRecord,
  binding: OAuthStateBinding,
  input: OAuthLinkRequest,
) {
  const state = await consumeOAuthLoginState(services, binding, input.state_code)
  assertPkceVerifier(input.code_verifier, state.codeChallenge)
  // Spec 01 §6: a code of 'undefined' is the browser's report of a denial.
  if (input.authorization_code === 'undefined') throw new ApiError('OAUTH_INVALID_CODE')
  const credentials = await usableClient(services, app, input.provider)
  const spec = providerSpec(input.provider, services.config.oauth)
  const tokenSet = await exchangeCode(services, spec, credentials, {
    code: input.authorization_code,
    codeVerifier: input.code_verifier,
    redirectTo: state.redirectTo,
    appId: app.id,
  })
  // Spec 01 §8 "user denied: retry and check the box": a permission left unticked.
  const missing = missingScopes(spec, tokenSet.tokens.scopes)
  if (missing.length > 0) {
    services.logger.warn(`oauth: ${spec.name} did not grant ${missing.join(', ')}`)
    throw new ApiError('OAUTH_SCOPE_DENIED')
  }
  const profile = await identify(services, spec, input.provider, tokenSet, {
    clientId: credentials.client_id,
    nonce: oauthNonce(services, input.state_code),
  })
  return { profile, tokens: { provider: input.provider, ...tokenSet.tokens } }
}

const accountData = (p: OAuthProfile) => ({
  email: p.email,
  name: p.name,
  username: p.username,
  picture: p.picture,
})

/** Refreshes the stored profile and the verification time of a returning account. */
async function refreshAccount(services: Services, accountId: string, profile: OAuthProfile) {
  await services.db
    .updateTable('linked_accounts')
    .set({ data: JSON.stringify(accountData(profile)), latest_verified_at: services.now() })
    .where('id', '=', accountId)
    .execute()
}

/** Logs in or signs up with a provider's return (spec 01 §4 "OAuth"). */
export async function authenticateWithOAuth(
  services: Services,
  app: AppRecord,
  input: OAuthAuthenticateRequest,
): Promise<OAuthAuthResponse> {
  const { profile, tokens } = await completeProviderFlow(
    services,
    app,
    { appId: app.id, provider: input.provider, intent: 'login', userId: null },
    input,
  )
  const withTokens = (response: Awaited<ReturnType<typeof startSession>>): OAuthAuthResponse =>
    app.settings.oauth?.return_provider_tokens ? { ...response, oauth_tokens: tokens } : response
  const type = input.provider
  const existing = await findAccount(services.db, app.id, type, profile.subject)
  if (existing) {
    await refreshAccount(services, existing.id, profile)
    return withTokens(await startSession(services, app.id, existing.user_id, false))
  }
  if ((input.mode ?? 'login-or-sign-up') === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const userId = await createUserWithAccount(
      services.db,
      app.id,
      { type, identifier: profile.subject, data: accountData(profile) },
      services.now(),
    )
    return withTokens(await startSession(services, app.id, userId, true))
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent sign-up with the same account won; log into that user.
    const winner = await findAccount(services.db, app.id, type, profile.subject)
    if (!winner) throw error
    return withTokens(await startSession(services, app.id, winner.user_id, false))
  }
}

/** Links a provider account to the signed-in user (one per provider). */
export async function linkOAuth(
  services: Services,
  app: AppRecord,
  userId: string,
  input: OAuthLinkRequest,
): Promise<UserWire> {
  const { profile } = await completeProviderFlow(
    services,
    app,
    { appId: app.id, provider: input.provider, intent: 'link', userId },
    input,
  )
  const type = input.provider
  const owner = await findAccount(services.db, app.id, type, profile.subject)
  if (owner && owner.user_id !== userId)
    // Another user's only login method may move here (docs/access-control.md).
    throw await accountTransferOrRefusal(
      services,
      app,
      userId,
      owner,
      { type, identifier: profile.subject, data: accountData(profile) },
      'ACCOUNT_ALREADY_LINKED',
    )
  if (owner) {
    await refreshAccount(services, owner.id, profile)
    return getUserWire(services.db, userId)
  }
  const accounts = await linkedAccountsOf(services.db, userId)
  if (accounts.some((a) => a.type === type))
    throw new ApiError('CANNOT_LINK_MORE_OF_TYPE', CANNOT_LINK_MORE_OAUTH)
  try {
    await insertAccount(
      services.db,
      app.id,
      userId,
      { type, identifier: profile.subject, data: accountData(profile) },
      services.now(),
    )
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes a provider account from the signed-in user, who must keep one login method. */
export async function unlinkOAuth(
  services: Services,
  app: AppRecord,
  userId: string,
  input: { provider: OAuthProvider; subject: string },
): Promise<UserWire> {
  return services.db.transaction().execute(async (tx) => {
    const accounts = await linkedAccountsOf(tx, userId)
    const target = accounts.find((a) => a.type === input.provider && a.identifier === input.subject)
    if (!target) throw new ApiError('ACCOUNT_NOT_LINKED')
    // Embedded wallets are not login methods.
    const logins = accounts.filter((a) => a.type !== 'wallet')
    if (logins.length <= 1) throw new ApiError('CANNOT_UNLINK_LAST_ACCOUNT')
    await tx
      .deleteFrom('linked_accounts')
      .where('id', '=', target.id)
      .where('app_id', '=', app.id)
      .execute()
    return getUserWire(tx, userId)
  })
}
