import { z } from 'zod'
import type { ProviderCredentials } from '../apps/credentials.ts'
import type { Services } from '../http/context.ts'
import { providerFailure, providerFetch } from './provider-fetch.ts'

/** The only scope cloud recovery asks for: the app's hidden folder in the user's Drive. */
export const DRIVE_APPDATA_SCOPE = 'https://www.googleapis.com/auth/drive.appdata'

type GoogleCredentials = Extract<ProviderCredentials, { provider: 'google-drive' }>

/**
 * Google's consent URL (OAuth 2.0 authorization code, PKCE S256, RFC 7636;
 * state per RFC 9700 §2.1): the host navigates there, Google sends the user
 * back to `redirectTo` with `?code&state`.
 *
 * @example
 * googleAuthorizationUrl(services, credentials, { redirectTo: 'https://app.example.com/wallet', state, codeChallenge })
 */
export function googleAuthorizationUrl(
  services: Pick<Services, 'config'>,
  credentials: GoogleCredentials,
  params: { redirectTo: string; state: string; codeChallenge: string },
): string {
  const url = new URL(services.config.cloudRecovery.google.authorizationUrl)
  url.searchParams.set('client_id', credentials.client_id)
  url.searchParams.set('redirect_uri', params.redirectTo)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', DRIVE_APPDATA_SCOPE)
  url.searchParams.set('state', params.state)
  url.searchParams.set('code_challenge', params.codeChallenge)
  url.searchParams.set('code_challenge_method', 'S256')
  url.searchParams.set('prompt', 'select_account')
  return url.href
}

const tokenResponseSchema = z.object({
  access_token: z.string().min(1).max(4096),
  expires_in: z.number().int().positive().optional(),
  scope: z.string().optional(),
  token_type: z.string().regex(/^bearer$/i),
})

const tokenErrorSchema = z.object({ error: z.string().regex(/^[a-z_]{1,64}$/) })

export interface GoogleAccess {
  accessToken: string
  expiresIn: number | undefined
}

/**
 * Exchanges an authorization code at Google's token endpoint (RFC 6749
 * §4.1.3 with the PKCE verifier, RFC 7636 §4.5) and checks that the user
 * granted the Drive app-data scope (Google lets users untick scopes).
 *
 * Throws 424 CLOUD_RECOVERY_FAILED when Google refuses the code (wrong
 * verifier, redirect URI or client, used or expired code), when the scope is
 * missing, or when Google cannot be reached. The message names the OAuth
 * error code only, never the code, verifier, secret or token.
 */
export async function exchangeGoogleCode(
  services: Pick<Services, 'config' | 'logger'>,
  credentials: GoogleCredentials,
  params: { code: string; codeVerifier: string; redirectTo: string; appId: string },
): Promise<GoogleAccess> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: params.code,
    redirect_uri: params.redirectTo,
    client_id: credentials.client_id,
    client_secret: credentials.client_secret,
    code_verifier: params.codeVerifier,
  })
  const { status, json } = await providerFetch(
    services,
    'Google',
    services.config.cloudRecovery.google.tokenUrl,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body,
    },
  )
  if (status !== 200) {
    const error = tokenErrorSchema.safeParse(json)
    const reason = error.success ? error.data.error : `HTTP ${status}`
    services.logger.warn(
      `cloud recovery: Google refused a code exchange for app ${params.appId} (${reason})`,
    )
    throw providerFailure(`Google refused the authorization code (${reason})`)
  }
  const token = tokenResponseSchema.safeParse(json)
  if (!token.success) throw providerFailure('Google answered the code exchange unexpectedly')
  const granted = (token.data.scope ?? '').split(' ')
  if (!granted.includes(DRIVE_APPDATA_SCOPE))
    throw providerFailure('Google did not grant access to the Drive app-data folder')
  return { accessToken: token.data.access_token, expiresIn: token.data.expires_in }
}
