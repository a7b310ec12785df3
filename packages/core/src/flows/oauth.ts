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
// Cloud recovery's pending consent: a return carrying its state is not ours.
import { cloudPendingKey, oauthPendingKey } from './pending-keys.ts'

export { oauthPendingKey }

/*
 * OAuth login (spec 01 §4 "OAuth", §7; docs/login-oauth.md): a full-page
 * redirect to the provider and back to this page. Before leaving, this tab
 * keeps the PKCE verifier, the state code, the provider and the intent in
 * sessionStorage (under its own key: cloud recovery keeps its consents under
 * another, and each flow only consumes a return carrying its own state). On
 * return the provider's parameters are read once and removed from the
 * address bar; the server exchanges the code.
 */

/** Kept across the redirect (sessionStorage, this tab). */
export interface PendingOAuth {
  provider: OAuthProvider
  intent: 'login' | 'link'
  disableSignup: boolean
  stateCode: string
  codeVerifier: string
  createdAt: number
  /** Which UI finishes the return: the modal, or the app's own (a hook or core). */
  ui?: OAuthUi
}

/** Who started (and so finishes) a redirect: Latchkey's modal or the app's own UI. */
export type OAuthUi = 'modal' | 'app'

/** A pending login older than this is ignored on return (provider codes live minutes). */
export const OAUTH_LOGIN_MAX_AGE_MS = 15 * 60 * 1000

/** Query parameters a provider adds on return; all are removed from the address bar. */
const RETURN_PARAMS = [
  'code',
  'state',
  'scope',
  'error',
  'error_description',
  'error_reason',
  'iss',
  'authuser',
  'prompt',
  'hd',
]

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
 * 256-bit state in this tab, asks the server for the provider's URL and
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
    stateCode: randomCode(32),
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

function readPending(appId: string, now: number): PendingOAuth | null {
  const raw = sessionStore()?.getItem(oauthPendingKey(appId))
  if (!raw) return null
  try {
    const pending = JSON.parse(raw) as PendingOAuth
    if (typeof pending.stateCode !== 'string' || typeof pending.codeVerifier !== 'string')
      return null
    return now - pending.createdAt <= OAUTH_LOGIN_MAX_AGE_MS ? pending : null
  } catch {
    return null
  }
}

function cloudConsentState(appId: string): string | null {
  try {
    const raw = sessionStore()?.getItem(cloudPendingKey(appId))
    const state = raw ? (JSON.parse(raw) as { stateCode?: unknown }).stateCode : null
    return typeof state === 'string' ? state : null
  } catch {
    return null
  }
}

/** What a provider's return gave this tab. */
export type OAuthReturn =
  | {
      ok: true
      provider: OAuthProvider
      intent: 'login' | 'link'
      ui: OAuthUi
      disableSignup: boolean
      authorizationCode: string
      stateCode: string
      codeVerifier: string
    }
  | {
      ok: false
      provider: OAuthProvider
      intent: 'login' | 'link'
      ui: OAuthUi
      /** OAUTH_INVALID_CODE (denied or no code) or OAUTH_STATE_MISMATCH (a foreign state). */
      error: LatchkeyError
      reason: 'denied' | 'state-mismatch'
    }

/**
 * Reads a provider's return once (spec 01 §2): only when this tab has a
 * pending OAuth login and the address carries `state` with `code` or
 * `error`. Removes them from the address bar (history.replaceState) and the
 * pending login from storage. A return carrying cloud recovery's state is
 * left for takeCloudConsentReturn, and with `ui` a return started by the
 * other UI is left for it (the modal and an app's hook never take each
 * other's). A code of 'undefined' or a missing code is
 * a denial; a state that is not this tab's is OAUTH_STATE_MISMATCH (spec 01
 * §6: a possible phishing attempt). Null when there is nothing to finish.
 *
 * @example
 * const back = takeOAuthReturn(client)
 * if (back) await completeOAuth(client, back)
 */
export function takeOAuthReturn(
  client: LatchkeyClient,
  options: { url?: string; now?: number; ui?: OAuthUi; replaceUrl?: (url: string) => void } = {},
): OAuthReturn | null {
  const href = options.url ?? globalThis.location?.href
  if (!href) return null
  const url = new URL(href)
  const params = url.searchParams
  const state = params.get('state')
  if (state === null || !(params.has('code') || params.has('error'))) return null
  const pending = readPending(client.appId, options.now ?? Date.now())
  if (!pending) return null
  if (state !== pending.stateCode && state === cloudConsentState(client.appId)) return null
  const ui = pending.ui ?? 'app'
  if (options.ui && options.ui !== ui) return null

  sessionStore()?.removeItem(oauthPendingKey(client.appId))
  const code = params.get('code')
  for (const name of RETURN_PARAMS) params.delete(name)
  const replace =
    options.replaceUrl ??
    ((to: string) => globalThis.history?.replaceState(globalThis.history.state, '', to))
  replace(url.toString())

  const base = { provider: pending.provider, intent: pending.intent, ui }
  if (state !== pending.stateCode)
    return {
      ...base,
      ok: false,
      error: new LatchkeyError('OAUTH_STATE_MISMATCH'),
      reason: 'state-mismatch',
    }
  if (!code || code === 'undefined')
    return { ...base, ok: false, error: new LatchkeyError('OAUTH_INVALID_CODE'), reason: 'denied' }
  return {
    ...base,
    ok: true,
    disableSignup: pending.disableSignup,
    authorizationCode: code,
    stateCode: pending.stateCode,
    codeVerifier: pending.codeVerifier,
  }
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
