import type { RecoveryOAuthAuthenticateResponse } from '@latchkey/protocol/schemas'
import { createGoogleDriveKeyStore } from './google-drive.ts'
import { createICloudKeyStore } from './icloud.ts'
import type { CloudFetch, CloudKeyStore } from './key-store.ts'

export {
  type CreateGoogleDriveKeyStoreParameters,
  createGoogleDriveKeyStore,
} from './google-drive.ts'
export { type CreateICloudKeyStoreParameters, createICloudKeyStore } from './icloud.ts'
export {
  type CloudFetch,
  type CloudKeyStore,
  CloudKeyStoreError,
  type CloudKeyStoreErrorReason,
  type GetRecoveryKeyParameters,
  type PutRecoveryKeyParameters,
  recoveryKeyName,
} from './key-store.ts'

/**
 * The key store for what the server's `recovery/oauth/authenticate` answered:
 * Google Drive with the access token, or iCloud with the web auth token and
 * the app's container.
 *
 * @example
 * ```ts
 * const access = await api.cloudAuthenticate(token, oauth)
 * const store = createCloudKeyStore(access)
 * const key = await store.getRecoveryKey({ appId, keyId: material.key_id })
 * ```
 */
export function createCloudKeyStore(
  access: RecoveryOAuthAuthenticateResponse,
  options: { fetch?: CloudFetch } = {},
): CloudKeyStore {
  if (access.provider === 'google-drive') {
    return createGoogleDriveKeyStore({
      apiBaseUrl: access.api_base_url,
      accessToken: access.access_token,
      ...options,
    })
  }
  return createICloudKeyStore({
    apiBaseUrl: access.api_base_url,
    containerId: access.container_id,
    environment: access.environment,
    apiToken: access.api_token,
    webAuthToken: access.access_token,
    ...options,
  })
}
