import type {
  CloudRecoveryProvider,
  RecoveryOAuthAuthenticateRequest,
  RecoveryOAuthAuthenticateResponse,
  RecoveryOAuthInitIcloudRequest,
  RecoveryOAuthInitRequest,
  RecoveryOAuthInitResponse,
} from '@latchkey/protocol'
import { getAppProviderCredentials, type ProviderCredentials } from '../apps/credentials.ts'
import { type AppRecord, toAppConfig } from '../apps/service.ts'
import { ApiError, limited } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { exchangeGoogleCode, googleAuthorizationUrl } from './google.ts'
import { icloudSignInUrl } from './icloud.ts'
import { consumeOAuthState, recordOAuthState } from './state.ts'

/*
 * Cloud-drive recovery, server side (docs/server.md "Cloud recovery"): the
 * server starts the provider consent and exchanges its result for a
 * provider access token that it hands to the enclave. It never sees the
 * recovery key (that lives in the user's drive), and it never logs a code,
 * token or credential (security bar 50).
 */

/**
 * `redirect_to` must be a page of one of the app's exact origins (security
 * bar 15: no open redirect): 403 ORIGIN_NOT_ALLOWED otherwise. A redirect URI
 * with credentials or a fragment is malformed (RFC 6749 §3.1.2).
 */
function checkRedirectTo(app: AppRecord, redirectTo: string): string {
  const url = new URL(redirectTo)
  if (url.username || url.password || url.hash)
    throw new ApiError('INVALID_PAYLOAD', 'redirect_to must have no credentials or fragment')
  if (!app.allowedOrigins.includes(url.origin)) throw new ApiError('ORIGIN_NOT_ALLOWED')
  return url.href
}

/**
 * The app's credentials for `provider`, if the method is usable for this
 * user: the app offers it (user_owned_recovery_options) or the user already
 * has a wallet backed up there (an app that stops offering a method must not
 * strand those wallets), and the app has credentials. 400
 * CLOUD_RECOVERY_NOT_CONFIGURED otherwise.
 */
async function usableCredentials<P extends CloudRecoveryProvider>(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  provider: P,
): Promise<Extract<ProviderCredentials, { provider: P }>> {
  const offered = toAppConfig(app).embedded_wallet_config.user_owned_recovery_options
  if (!offered.includes(provider) && !(await hasCloudBackup(services, auth, provider)))
    throw notConfigured(provider)
  const credentials = await getAppProviderCredentials(services, app.id, provider)
  if (!credentials) throw notConfigured(provider)
  return credentials
}

/**
 * Each consent costs a row and (iCloud) a call to CloudKit: a user may start
 * `rateLimits.cloudConsentsPerUser` of them (default 20 per 10 minutes), else
 * 429 TOO_MANY_REQUESTS.
 */
async function countConsent(services: Services, auth: AuthContext): Promise<void> {
  const rule = services.config.rateLimits.cloudConsentsPerUser
  const result = await services.limiter.hit(
    `cloud-consent:${auth.appId}:${auth.userId}`,
    rule.limit,
    rule.windowMs,
  )
  if (!result.allowed) throw limited('TOO_MANY_REQUESTS', result.resetAt, services.now())
}

const notConfigured = (provider: CloudRecoveryProvider) =>
  new ApiError('CLOUD_RECOVERY_NOT_CONFIGURED', `This app has no ${provider} recovery`)

async function hasCloudBackup(
  services: Services,
  auth: AuthContext,
  provider: CloudRecoveryProvider,
): Promise<boolean> {
  const row = await services.db
    .selectFrom('wallet_secrets')
    .select('entropy_id')
    .where('app_id', '=', auth.appId)
    .where('user_id', '=', auth.userId)
    .where('recovery_method', '=', provider)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Starts a Google Drive consent: records the state (bound to user, app and
 * provider, with the redirect URI and PKCE challenge) and answers Google's
 * consent URL.
 *
 * @example
 * const { url } = await initGoogleDriveConsent(services, app, auth, {
 *   provider: 'google-drive', redirect_to: 'https://app.example.com/wallet', code_challenge, state_code,
 * })
 */
export async function initGoogleDriveConsent(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  input: RecoveryOAuthInitRequest,
): Promise<RecoveryOAuthInitResponse> {
  const redirectTo = checkRedirectTo(app, input.redirect_to)
  const credentials = await usableCredentials(services, app, auth, 'google-drive')
  await countConsent(services, auth)
  await recordOAuthState(services, {
    auth,
    provider: 'google-drive',
    stateCode: input.state_code,
    redirectTo,
    codeChallenge: input.code_challenge,
  })
  return {
    url: googleAuthorizationUrl(services, credentials, {
      redirectTo,
      state: input.state_code,
      codeChallenge: input.code_challenge,
    }),
  }
}

/**
 * Starts an iCloud sign-in: asks CloudKit for the Apple sign-in URL with the
 * app's API token, then records the state. Apple returns the user to the API
 * token's configured callback URL (which should be `redirect_to`'s page).
 */
export async function initIcloudConsent(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  input: RecoveryOAuthInitIcloudRequest,
): Promise<RecoveryOAuthInitResponse> {
  const redirectTo = checkRedirectTo(app, input.redirect_to)
  const credentials = await usableCredentials(services, app, auth, 'icloud')
  await countConsent(services, auth)
  const url = await icloudSignInUrl(services, credentials, app.id)
  await recordOAuthState(services, {
    auth,
    provider: 'icloud',
    stateCode: input.state_code,
    redirectTo,
    codeChallenge: null,
  })
  return { url }
}

/**
 * Turns a consent's result into provider access for the enclave. The state
 * is spent first (single use, same user, app and provider, unexpired: else
 * 400 OAUTH_STATE_MISMATCH). Google Drive: the code is exchanged with the
 * PKCE verifier and the client secret, and the Drive app-data scope must be
 * granted (else 424 CLOUD_RECOVERY_FAILED). iCloud: the `ckWebAuthToken` is
 * handed back with the container, environment and API token.
 */
export async function authenticateConsent(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  input: RecoveryOAuthAuthenticateRequest,
): Promise<RecoveryOAuthAuthenticateResponse> {
  if (input.provider === 'google-drive' && !input.code_verifier)
    throw new ApiError('INVALID_PAYLOAD', 'code_verifier is required for google-drive')
  const state = await consumeOAuthState(services, auth, input.provider, input.state_code)
  const endpoints = services.config.cloudRecovery
  if (input.provider === 'google-drive') {
    const credentials = await usableCredentials(services, app, auth, 'google-drive')
    const access = await exchangeGoogleCode(services, credentials, {
      code: input.authorization_code,
      codeVerifier: input.code_verifier ?? '',
      redirectTo: state.redirectTo,
      appId: app.id,
    })
    return {
      provider: 'google-drive',
      access_token: access.accessToken,
      ...(access.expiresIn ? { expires_in: access.expiresIn } : {}),
      api_base_url: endpoints.google.apiBaseUrl,
    }
  }
  const credentials = await usableCredentials(services, app, auth, 'icloud')
  return {
    provider: 'icloud',
    access_token: input.authorization_code,
    api_base_url: endpoints.icloud.apiBaseUrl,
    container_id: credentials.container_id,
    environment: credentials.environment,
    api_token: credentials.api_token,
  }
}
