import { routes } from '@latchkey/protocol/routes'
import type {
  OAuthAuthResponse,
  OAuthInitResponse,
  OAuthProvider,
  OAuthTokens,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { setRecentLoginMethod } from '../recent-login.ts'
import { currentPage, pkceChallenge, randomCode, sessionStore } from '../redirect.ts'
import { toUser, type User } from '../user.ts'
import { loginRequest } from './login-request.ts'
import type { OAuthReturn, OAuthUi, PendingOAuth } from './oauth-return.ts'
import { oauthPendingKey } from './pending-keys.ts'

export {
  OAUTH_LOGIN_MAX_AGE_MS,
  type OAuthReturn,
  type OAuthReturnFailure,
  type OAuthUi,
  type PendingOAuth,
  takeOAuthReturn,
} from './oauth-return.ts'
export { oauthPendingKey }

/** A fresh state code naming `provider` (its shape: oauth-state.ts). */
const oauthStateCode = (provider: OAuthProvider) => `${provider}.${randomCode(32)}`

/*
 * OAuth login (spec 01 §4 "OAuth", §7; docs/login-oauth.md): a full-page
 * redirect to the provider and back to this page. Before leaving, this tab
 * keeps the PKCE verifier, the state code, the provider and the intent in
 * sessionStorage. The state code names the provider (oauth-state.ts), so the
 * return carries code, state and provider; oauth-return.ts reads it once and
 * removes it from the address bar; the server exchanges the code.
 */

export interface InitOAuthParameters {
  provider: OAuthProvider
  /** `link` adds the account to the signed-in user. Default `login`. */
  intent?: 'login' | 'link'
  /** Login only: refuse unknown users (mode `no-signup`). */
  disableSignup?: boolean
  /** Where the provider sends the user back (a page of an allowed origin). Default: this page. */
  redirectTo?: string
  captchaToken?: string
  /** Who finishes the return (takeOAuthReturn's `ui`). Default 'app'. */
  ui?: OAuthUi
  /** Default `location.assign`. */
  navigate?: (url: string) => void
  now?: () => number
}

/**
 * Starts an OAuth login or link: keeps the PKCE verifier (S256) and a
 * 256-bit state naming the provider in this tab, asks the server for the provider's URL and
 * navigates there. Resolves just before the page unloads.
 *
 * @example
 * await initOAuth(client, { provider: 'google' })
 */
export async function initOAuth(
  client: LatchkeyClient,
  parameters: InitOAuthParameters,
): Promise<void> {
  const store = sessionStore()
  if (!store) throw new LatchkeyError('INTERNAL_ERROR', 'sessionStorage is unavailable')
  const intent = parameters.intent ?? 'login'
  const pending: PendingOAuth = {
    provider: parameters.provider,
    intent,
    disableSignup: intent === 'login' && parameters.disableSignup === true,
    stateCode: oauthStateCode(parameters.provider),
    codeVerifier: randomCode(48),
    createdAt: (parameters.now ?? Date.now)(),
    ui: parameters.ui ?? 'app',
  }
  // docs/captcha.md: a fresh single-use token from the installed captcha, if any.
  const token = parameters.captchaToken ?? (await client.captchaToken())
  const body = {
    provider: pending.provider,
    redirect_to: parameters.redirectTo ?? currentPage(),
    code_challenge: await pkceChallenge(pending.codeVerifier),
    state_code: pending.stateCode,
    intent,
    ...(token ? { token } : {}),
  }
  const { url } =
    intent === 'link'
      ? await client.authedRequest<OAuthInitResponse>(routes.oauthInit, body)
      : await client.http.request<OAuthInitResponse>(routes.oauthInit, { body, auth: false })
  store.setItem(oauthPendingKey(client.appId), JSON.stringify(pending))
  ;(parameters.navigate ?? ((to: string) => globalThis.location.assign(to)))(url)
}

export interface CompleteOAuthReturnType {
  provider: OAuthProvider
  user: User
  isNewUser: boolean
  /** The provider's tokens, when the app returns them (login only). */
  oauthTokens?: OAuthTokens
}

/**
 * Finishes a return: logs in (or signs up, or refuses unknown users with
 * `disableSignup`) and stores the session, or links the account to the
 * signed-in user. Throws the return's error when it failed.
 */
export async function completeOAuth(
  client: LatchkeyClient,
  ret: OAuthReturn,
): Promise<CompleteOAuthReturnType> {
  if (!ret.ok) throw ret.error
  const body = {
    provider: ret.provider,
    authorization_code: ret.authorizationCode,
    state_code: ret.stateCode,
    code_verifier: ret.codeVerifier,
  }
  if (ret.intent === 'link') {
    const user = toUser(await client.authedRequest<UserWire>(routes.oauthLink, body))
    client.session.setUser(user)
    return { provider: ret.provider, user, isNewUser: false }
  }
  const response = await loginRequest<OAuthAuthResponse>(client, routes.oauthAuthenticate, {
    ...body,
    mode: ret.disableSignup ? 'no-signup' : 'login-or-sign-up',
  })
  const user = client.session.applyAuthResponse(response)
  setRecentLoginMethod(client.storage, client.appId, ret.provider)
  return {
    provider: ret.provider,
    user,
    isNewUser: response.is_new_user,
    ...(response.oauth_tokens ? { oauthTokens: response.oauth_tokens } : {}),
  }
}

/** Unlinks a provider account from the signed-in user (who must keep one login method). */
export async function unlinkOAuth(
  client: LatchkeyClient,
  { provider, subject }: { provider: OAuthProvider; subject: string },
): Promise<User> {
  const user = toUser(
    await client.authedRequest<UserWire>(routes.oauthUnlink, { provider, subject }),
  )
  client.session.setUser(user)
  return user
}
