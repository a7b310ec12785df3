import type { ErrorCode } from '@latchkey/protocol/errors'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { sessionStore } from '../redirect.ts'
import { type OAuthReturnParams, readOAuthReturnParams } from './oauth-state.ts'
import { oauthPendingKey } from './pending-keys.ts'
import { readPendingRedirect } from './pending-redirect.ts'

/*
 * A provider's return to this page (spec 01 §2, §4 "OAuth", §5;
 * docs/login-oauth.md "Flow"): read once, only when code, state and provider
 * are all in the URL, and then all of them leave the address bar, whether
 * this tab can finish the login or not.
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

/** A pending login older than this is not finished on return (provider codes live minutes). */
export const OAUTH_LOGIN_MAX_AGE_MS = 15 * 60 * 1000

/** Query parameters a provider adds on return; all are removed from the address bar. */
const RETURN_PARAMS = [
  'code',
  'state',
  'scope',
  'error',
  'error_description',
  'error_reason',
  'error_uri',
  'iss',
  'authuser',
  'prompt',
  'hd',
]

/** Why a return cannot be finished. */
export type OAuthReturnFailure =
  | 'denied'
  | 'suspended'
  | 'provider-error'
  | 'state-mismatch'
  | 'expired'

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
      /** The catalogue code to show (see `reason`). */
      error: LatchkeyError
      reason: OAuthReturnFailure
    }

const readPending = (appId: string, now: number) =>
  readPendingRedirect<PendingOAuth>(oauthPendingKey(appId), now, OAUTH_LOGIN_MAX_AGE_MS)

/**
 * A refusal the return itself carries. Spec 01 §5: a code equal to
 * 'undefined' means the user denied ('Invalid code during OAuth flow.', §8).
 * A provider's RFC 6749 §4.1.2.1 error stands in for the code: the user's
 * "Cancel" (`access_denied`) is 'User denied confirmation during OAuth flow',
 * a refusal whose description names a suspension is 'account suspended, try
 * another method', the provider's own trouble is its retryable generic text.
 */
function refusalOf(found: OAuthReturnParams): [ErrorCode, OAuthReturnFailure] | null {
  if (found.error !== null) {
    if (/suspend/i.test(found.errorText)) return ['OAUTH_ACCOUNT_SUSPENDED', 'suspended']
    if (found.error === 'access_denied') return ['OAUTH_USER_DENIED', 'denied']
    if (found.error === 'server_error' || found.error === 'temporarily_unavailable')
      return ['OAUTH_PROVIDER_ERROR', 'provider-error']
    return ['OAUTH_INVALID_CODE', 'provider-error']
  }
  if (!found.code || found.code === 'undefined') return ['OAUTH_INVALID_CODE', 'denied']
  return null
}

/**
 * Reads a provider's return once (spec 01 §2): only when the address
 * carries the state code naming a provider (oauth-state.ts) and a code (or
 * the provider's `error`). Then it removes them from the address bar
 * (history.replaceState) and this tab's pending login from storage, and
 * says what came back:
 *
 * - a state other than this tab's pending one: OAUTH_STATE_MISMATCH (spec
 *   01 §5: a possible phishing attempt);
 * - a refusal in the return (see `refusalOf`);
 * - no pending login in this tab (started in another tab, or more than 15
 *   minutes ago): OAUTH_LOGIN_EXPIRED — the parameters are removed anyway;
 * - else the code to exchange.
 *
 * With `ui`, a return this tab started from the other UI is left for it (the
 * modal and an app's hook never take each other's); a return with no pending
 * login goes to whichever asks first. Null when there is nothing to take.
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
  const found = readOAuthReturnParams(url.searchParams)
  if (!found) return null
  const pending = readPending(client.appId, options.now ?? Date.now())
  const ui = pending ? (pending.ui ?? 'app') : (options.ui ?? 'app')
  if (options.ui && options.ui !== ui) return null

  sessionStore()?.removeItem(oauthPendingKey(client.appId))
  for (const name of RETURN_PARAMS) url.searchParams.delete(name)
  const replace =
    options.replaceUrl ??
    ((to: string) => globalThis.history?.replaceState(globalThis.history.state, '', to))
  replace(url.toString())

  const base = { provider: found.provider, intent: pending?.intent ?? 'login', ui }
  const fail = (code: ErrorCode, reason: OAuthReturnFailure): OAuthReturn => ({
    ...base,
    ok: false,
    error: new LatchkeyError(code),
    reason,
  })
  if (pending && found.state !== pending.stateCode)
    return fail('OAUTH_STATE_MISMATCH', 'state-mismatch')
  const refusal = refusalOf(found)
  if (refusal) return fail(...refusal)
  if (!pending || !found.code) return fail('OAUTH_LOGIN_EXPIRED', 'expired')
  return {
    ...base,
    ok: true,
    disableSignup: pending.disableSignup,
    authorizationCode: found.code,
    stateCode: pending.stateCode,
    codeVerifier: pending.codeVerifier,
  }
}
