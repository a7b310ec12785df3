import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'
import type { OAuthProvider } from '@latchkey/protocol/schemas'

/*
 * Spec 01 §2, §4: a provider's return is ours only when the URL carries the
 * authorization code, the state code and the provider, all three. Providers
 * match the return URL against the registered one exactly, and some refuse
 * any parameter in it (TikTok: "URIs must be static. Parameters will be
 * denied."), so the provider cannot ride as a parameter of the return URL:
 * it rides in the state, which every provider echoes unchanged —
 * `{provider}.{256 random bits, base64url}`, e.g. `google.Q2xv…` (43
 * characters after the dot). The server binds the whole state to the
 * provider, so a state naming another provider is a mismatch.
 *
 * No zod and no flows here: the provider calls `oauthReturnInUrl` on every
 * mount (pending-keys.ts).
 */

const STATE = /^([a-z]+)\.[A-Za-z0-9_-]{43}$/
const PROVIDERS: ReadonlySet<string> = new Set(OAUTH_PROVIDERS)

/** The provider a state code of ours names; null for any other state (cloud recovery's, the app's own). */
export function providerOfOAuthState(state: string | null): OAuthProvider | null {
  const name = state?.match(STATE)?.[1]
  return name && PROVIDERS.has(name) ? (name as OAuthProvider) : null
}

/** What a provider's return put in the query. */
export interface OAuthReturnParams {
  provider: OAuthProvider
  state: string
  /** The authorization code; null on an error return. */
  code: string | null
  /** RFC 6749 §4.1.2.1: the provider's `error` (e.g. `access_denied`) instead of a code. */
  error: string | null
  /** `error_description` and `error_reason` (Meta), for what the provider said about it. */
  errorText: string
}

/**
 * The return in `params`, or null unless state (naming a provider) and a
 * code — or the provider's `error`, which stands in for the code on a
 * refusal — are all there.
 */
export function readOAuthReturnParams(params: URLSearchParams): OAuthReturnParams | null {
  const state = params.get('state')
  const provider = providerOfOAuthState(state)
  const code = params.get('code')
  const error = params.get('error')
  if (!provider || state === null || (code === null && error === null)) return null
  const errorText = [params.get('error_description'), params.get('error_reason')]
    .filter(Boolean)
    .join(' ')
  return { provider, state, code, error, errorText }
}

/** This page's address carries an OAuth login return (cheap: no storage, no flows). */
export function oauthReturnInUrl(search = globalThis.location?.search ?? ''): boolean {
  return readOAuthReturnParams(new URLSearchParams(search)) !== null
}
