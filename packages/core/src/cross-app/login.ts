import { CROSS_APP_QUERY } from '@latchkey/protocol/client-schemas'
import { routes } from '@latchkey/protocol/routes'
import type {
  CrossAppAuthenticateResponse,
  CrossAppDetails,
  CrossAppTransactGrant,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { loginRequest } from '../flows/login-request.ts'
import { pkceChallenge, randomCode, sessionStore } from '../redirect.ts'
import { toUser, type User } from '../user.ts'
import {
  type CrossAppPopup,
  type MessageTarget,
  openCrossAppPopup,
  waitForCrossAppMessage,
} from './popup.ts'

/** Where a requester keeps its transact token for a provider (`{appId}`, `{providerAppId}`). */
const GRANT_KEY = 'latchkey:cross-app-token:{appId}:{providerAppId}'
/** This tab's pending request (spec 03 §5: the state is checked against the stored one). */
const PENDING_KEY = 'latchkey:cross-app-pending:{providerAppId}'

const grantKey = (appId: string, providerAppId: string) =>
  GRANT_KEY.replace('{appId}', appId).replace('{providerAppId}', providerAppId)

/** The transact token kept for `providerAppId` and the signed-in user, or null. */
export function readCrossAppGrant(
  client: LatchkeyClient,
  providerAppId: string,
): (CrossAppTransactGrant & { user_id: string }) | null {
  const raw = client.storage.get(grantKey(client.appId, providerAppId))
  if (!raw) return null
  try {
    return JSON.parse(raw) as CrossAppTransactGrant & { user_id: string }
  } catch {
    return null
  }
}

/** A provider app's public details (GET /apps/{appId}/cross-app/details); 'Invalid connected app' when it shares nothing. */
export function getCrossAppDetails(
  client: LatchkeyClient,
  providerAppId: string,
): Promise<CrossAppDetails> {
  return client.http.request<CrossAppDetails>(routes.crossAppDetails(providerAppId))
}

export interface CrossAppLoginOptions {
  /** The provider app's id (a `latchkey:{appId}` login method). */
  appId: string
  /** `link`: add the provider account to the signed-in user. */
  intent?: 'login' | 'link'
  /** Called once the popup points at the provider's page ('Connecting to {app}'). */
  onConnecting?: (details: CrossAppDetails) => void
  /** A popup opened already (within the click); default: opened now. */
  popup?: CrossAppPopup | null
  target?: MessageTarget
  signal?: AbortSignal
}

export interface CrossAppLoginReturnType {
  user: User
  isNewUser: boolean
  /** The provider app (for 'Successfully connected with {app}'). */
  provider: CrossAppDetails
}

/**
 * Logs in (or links) through a provider app on the same server (spec 03 §4
 * "Cross-app auth"; docs/cross-app.md). Opens the provider's page in a
 * 440x680 popup with a fresh state and PKCE challenge, waits for its code
 * (2 minutes; a closed popup is 'User canceled flow'), and trades the code
 * with the verifier kept in this tab. The transact token of the answer is
 * kept for `useCrossAppAccounts` signing.
 *
 * @example
 * const { user } = await loginWithCrossApp(client, { appId: 'providerappid…' })
 */
export async function loginWithCrossApp(
  client: LatchkeyClient,
  options: CrossAppLoginOptions,
): Promise<CrossAppLoginReturnType> {
  const popup = options.popup === undefined ? openCrossAppPopup() : options.popup
  if (!popup) throw new LatchkeyError('CROSS_APP_CANCELED', 'The pop-up was blocked')
  try {
    const provider = await getCrossAppDetails(client, options.appId)
    const state = randomCode(32)
    const verifier = randomCode(32)
    const pendingKey = PENDING_KEY.replace('{providerAppId}', options.appId)
    sessionStore()?.setItem(pendingKey, JSON.stringify({ state, verifier }))
    const url = new URL(provider.custom_api_url)
    url.searchParams.set(CROSS_APP_QUERY, 'authorize')
    url.searchParams.set('requester_app_id', client.appId)
    url.searchParams.set('state', state)
    url.searchParams.set('code_challenge', await pkceChallenge(verifier))
    url.searchParams.set('origin', globalThis.location.origin)
    popup.location.href = url.toString()
    options.onConnecting?.(provider)
    const answer = await waitForCrossAppMessage({
      popup,
      providerOrigin: url.origin,
      state,
      target: options.target,
      signal: options.signal,
    })
    // The stored request is the one to compare with (another tab may have started its own).
    const stored = JSON.parse(sessionStore()?.getItem(pendingKey) ?? 'null') as {
      state: string
      verifier: string
    } | null
    sessionStore()?.removeItem(pendingKey)
    if (answer.result !== 'code' || (stored && stored.state !== answer.state))
      throw new LatchkeyError('CROSS_APP_STATE_MISMATCH')
    const body = { provider_app_id: options.appId, code: answer.code, code_verifier: verifier }
    if (options.intent === 'link') {
      const linked = await client.authedRequest<{
        user: UserWire
        cross_app: CrossAppTransactGrant
      }>(routes.crossAppLink, body)
      const user = toUser(linked.user)
      client.session.setUser(user)
      keepGrant(client, linked.cross_app, user.id)
      return { user, isNewUser: false, provider }
    }
    const response = await loginRequest<CrossAppAuthenticateResponse>(
      client,
      routes.crossAppAuthenticate,
      body,
    )
    const user = client.session.applyAuthResponse(response)
    keepGrant(client, response.cross_app, user.id)
    return { user, isNewUser: response.is_new_user, provider }
  } catch (error) {
    if (!popup.closed) popup.close()
    throw error
  }
}

function keepGrant(client: LatchkeyClient, grant: CrossAppTransactGrant, userId: string): void {
  client.storage.set(
    grantKey(client.appId, grant.provider_app_id),
    JSON.stringify({ ...grant, user_id: userId }),
  )
}
