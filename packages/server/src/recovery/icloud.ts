import { z } from 'zod'
import type { ProviderCredentials } from '../apps/credentials.ts'
import type { Services } from '../http/context.ts'
import { providerFailure, providerFetch } from './provider-fetch.ts'

type IcloudCredentials = Extract<ProviderCredentials, { provider: 'icloud' }>

/** CloudKit's "sign in first" answer: HTTP 421 with the Apple sign-in URL. */
const authenticationRequiredSchema = z.object({
  serverErrorCode: z.literal('AUTHENTICATION_REQUIRED'),
  redirectURL: z.url({ protocol: /^https?$/ }).max(4096),
})

/** `{api}/database/1/{container}/{environment}/public/users/caller`; the container id is validated at storage. */
export function cloudKitCallerUrl(
  services: Pick<Services, 'config'>,
  credentials: IcloudCredentials,
): URL {
  const base = services.config.cloudRecovery.icloud.apiBaseUrl
  const container = encodeURIComponent(credentials.container_id)
  const url = new URL(
    `${base}/database/1/${container}/${credentials.environment}/public/users/caller`,
  )
  url.searchParams.set('ckAPIToken', credentials.api_token)
  return url
}

/**
 * The Apple sign-in URL for the app's CloudKit container (CloudKit Web
 * Services): `users/caller` called with the API token alone answers 421
 * AUTHENTICATION_REQUIRED with `redirectURL`. After sign-in Apple sends the
 * user to the API token's configured sign-in callback URL with
 * `?ckWebAuthToken=…`.
 *
 * Throws 424 CLOUD_RECOVERY_FAILED when CloudKit refuses the API token,
 * answers anything else, or cannot be reached.
 */
export async function icloudSignInUrl(
  services: Pick<Services, 'config' | 'logger'>,
  credentials: IcloudCredentials,
  appId: string,
): Promise<string> {
  const url = cloudKitCallerUrl(services, credentials)
  const { status, json } = await providerFetch(services, 'CloudKit', url.href, {
    method: 'GET',
    headers: { accept: 'application/json' },
  })
  const signIn = authenticationRequiredSchema.safeParse(json)
  if (status === 421 && signIn.success) return signIn.data.redirectURL
  const code = (json as { serverErrorCode?: unknown } | undefined)?.serverErrorCode
  const reason = typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code) ? code : `HTTP ${status}`
  services.logger.warn(`cloud recovery: CloudKit refused a sign-in for app ${appId} (${reason})`)
  if (status === 401 || code === 'AUTHENTICATION_FAILED')
    throw providerFailure(`CloudKit refused the app's container or API token (${reason})`)
  throw providerFailure(`CloudKit did not offer a sign-in (${reason})`)
}
