import { routes } from '@latchkey/protocol/routes'
import type {
  CloudOAuthResult,
  CloudRecoveryProvider,
  RecoveryChoice,
  RecoveryOAuthInitResponse,
} from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { cloudPendingKey } from '../flows/pending-keys.ts'
import { readPendingRedirect } from '../flows/pending-redirect.ts'
import { currentPage, pkceChallenge, randomCode, sessionStore } from '../redirect.ts'

/*
 * Cloud-drive recovery consent (spec 02 "Recovery by cloud drive"): a
 * full-page redirect to Google or Apple and back. Before leaving, the page
 * keeps what it needs to finish in sessionStorage (this tab only): the PKCE
 * verifier, the state code and what the user was doing. On return the
 * provider's parameters are read once, removed from the address bar, and
 * handed to the enclave, which exchanges them itself (the provider token never
 * enters this page). See docs/wallets.md "Cloud backup".
 */

/** What the consent is for; it decides the copy and what runs on return. */
export type CloudRecoveryAction = 'create-wallet' | 'set-recovery' | 'recover'

/** Kept across the redirect (sessionStorage, this tab). */
export interface PendingCloudRecovery {
  provider: CloudRecoveryProvider
  action: CloudRecoveryAction
  stateCode: string
  codeVerifier: string
  /** The secret to back up or recover (set-recovery, recover; create-wallet when one exists). */
  entropyId?: string
  /** create-wallet: the chains the post-login step was creating, and its greeting. */
  chains?: Array<'ethereum' | 'solana'>
  isNewUser?: boolean
  createdAt: number
}

export type CloudRecoveryReturn =
  | { ok: true; pending: PendingCloudRecovery; oauth: CloudOAuthResult }
  | {
      ok: false
      pending: PendingCloudRecovery
      /**
       * OAUTH_STATE_MISMATCH when the state is not ours; RECOVERY_OAUTH_FAILED when the
       * provider answered with an error other than a denial; else the action's failure code.
       */
      code:
        | 'CLOUD_BACKUP_FAILED'
        | 'CLOUD_RECOVERY_FAILED'
        | 'OAUTH_STATE_MISMATCH'
        | 'RECOVERY_OAUTH_FAILED'
      reason: 'denied' | 'state-mismatch' | 'provider-error'
    }

/** A consent older than this is ignored on return (the provider's codes live minutes). */
export const CLOUD_CONSENT_MAX_AGE_MS = 15 * 60 * 1000

/** Query parameters a provider adds on return; all are removed from the address bar. */
const RETURN_PARAMS = [
  'code',
  'state',
  'scope',
  'error',
  'error_description',
  'authuser',
  'prompt',
  'hd',
  'ckWebAuthToken',
  'ckSession',
]

const pendingKey = (client: LatchkeyClient) => cloudPendingKey(client.appId)

export { pkceChallenge }

export interface StartCloudConsentParameters {
  provider: CloudRecoveryProvider
  action: CloudRecoveryAction
  entropyId?: string
  chains?: Array<'ethereum' | 'solana'>
  isNewUser?: boolean
  /** Where the provider sends the user back (an allowed origin of the app). Default: this page. */
  redirectTo?: string
  /** Default `location.assign`. */
  navigate?: (url: string) => void
  now?: () => number
}

/**
 * Starts the provider consent for a cloud backup or recovery: keeps the
 * PKCE verifier and state in this tab, asks the server for the provider's URL
 * and navigates there. Resolves just before the page unloads.
 *
 * @example
 * await startCloudConsent(client, { provider: 'google-drive', action: 'set-recovery', entropyId })
 */
export async function startCloudConsent(
  client: LatchkeyClient,
  parameters: StartCloudConsentParameters,
): Promise<void> {
  const store = sessionStore()
  if (!store)
    throw new LatchkeyError('CLOUD_RECOVERY_NOT_CONFIGURED', 'sessionStorage is unavailable')
  const pending: PendingCloudRecovery = {
    provider: parameters.provider,
    action: parameters.action,
    stateCode: randomCode(32),
    codeVerifier: randomCode(48),
    entropyId: parameters.entropyId,
    chains: parameters.chains,
    isNewUser: parameters.isNewUser,
    createdAt: (parameters.now ?? Date.now)(),
  }
  const redirectTo = parameters.redirectTo ?? currentPage()
  const { url } =
    pending.provider === 'google-drive'
      ? await client.authedRequest<RecoveryOAuthInitResponse>(routes.recoveryOAuthInit, {
          provider: 'google-drive',
          redirect_to: redirectTo,
          code_challenge: await pkceChallenge(pending.codeVerifier),
          state_code: pending.stateCode,
        })
      : await client.authedRequest<RecoveryOAuthInitResponse>(routes.recoveryOAuthInitIcloud, {
          client_type: 'web',
          redirect_to: redirectTo,
          state_code: pending.stateCode,
        })
  store.setItem(pendingKey(client), JSON.stringify(pending))
  ;(parameters.navigate ?? ((to: string) => globalThis.location.assign(to)))(url)
}

const readPending = (client: LatchkeyClient, now: number) =>
  readPendingRedirect<PendingCloudRecovery>(pendingKey(client), now, CLOUD_CONSENT_MAX_AGE_MS)

const failureCode = (action: CloudRecoveryAction) =>
  action === 'recover' ? 'CLOUD_RECOVERY_FAILED' : 'CLOUD_BACKUP_FAILED'

/**
 * Reads a provider's return once: when this tab started a consent and the
 * address carries the provider's answer, removes the answer from the address
 * bar (history.replaceState) and the pending consent from storage, and says
 * what came back. Null when there is nothing to finish.
 *
 * @example
 * const back = takeCloudConsentReturn(client)
 * if (back?.ok) await setWalletRecovery(client, { recovery: { method: back.pending.provider, oauth: back.oauth } })
 */
export function takeCloudConsentReturn(
  client: LatchkeyClient,
  options: { url?: string; now?: number; replaceUrl?: (url: string) => void } = {},
): CloudRecoveryReturn | null {
  const href = options.url ?? globalThis.location?.href
  if (!href) return null
  const url = new URL(href)
  const params = url.searchParams
  const isGoogleReturn = params.has('state') && (params.has('code') || params.has('error'))
  const isAppleReturn = params.has('ckWebAuthToken')
  if (!isGoogleReturn && !isAppleReturn) return null
  const pending = readPending(client, options.now ?? Date.now())
  if (!pending) return null
  // Another flow's return (e.g. an OAuth login) is not ours to consume.
  if (isGoogleReturn !== (pending.provider === 'google-drive')) return null

  sessionStore()?.removeItem(pendingKey(client))
  for (const name of RETURN_PARAMS) params.delete(name)
  const replace =
    options.replaceUrl ??
    ((to: string) => globalThis.history?.replaceState(globalThis.history.state, '', to))
  replace(url.toString())

  const answer = new URL(href).searchParams
  if (pending.provider === 'google-drive') {
    if (answer.get('state') !== pending.stateCode)
      return { ok: false, pending, code: 'OAUTH_STATE_MISMATCH', reason: 'state-mismatch' }
    const code = answer.get('code')
    if (!code || code === 'undefined') {
      const denied = answer.get('error') === 'access_denied'
      return {
        ok: false,
        pending,
        // Spec 02 §8 'Recovery OAuth failed': the provider refused for a reason of its own.
        code: denied ? failureCode(pending.action) : 'RECOVERY_OAUTH_FAILED',
        reason: denied ? 'denied' : 'provider-error',
      }
    }
    return {
      ok: true,
      pending,
      oauth: {
        provider: 'google-drive',
        authorization_code: code,
        state_code: pending.stateCode,
        code_verifier: pending.codeVerifier,
      },
    }
  }
  const token = answer.get('ckWebAuthToken')
  if (!token) return { ok: false, pending, code: failureCode(pending.action), reason: 'denied' }
  return {
    ok: true,
    pending,
    oauth: { provider: 'icloud', authorization_code: token, state_code: pending.stateCode },
  }
}

/** The recovery choice a consent's result makes: back up to the provider it came from. */
export function cloudRecoveryChoice(oauth: CloudOAuthResult): RecoveryChoice {
  return oauth.provider === 'google-drive'
    ? { method: 'google-drive', oauth: { ...oauth, provider: 'google-drive' } }
    : { method: 'icloud', oauth: { ...oauth, provider: 'icloud' } }
}
