import type { ErrorCode } from '@latchkey/protocol/errors'
import { isEnclaveError } from '@latchkey/protocol/keys'
import {
  type CloudOAuthResult,
  type CloudRecoveryProvider,
  cloudRecoveryProviderNames,
  type RecoveryChoice,
  type RecoveryMaterial,
  type RecoveryOAuthAuthenticateResponse,
} from '@latchkey/protocol/schemas'
import type { CloudKeyStore } from '../cloud/index.ts'
import { CloudKeyStoreError } from '../cloud/index.ts'
import { bytesToBase64url } from '../encoding.ts'
import { generateRecoveryKey, openRecoveryShare, sealRecoveryShare } from '../recovery.ts'
import type { ServerApi } from './api.ts'
import { PageError } from './errors.ts'

// Cloud-drive recovery in the enclave (ARCHITECTURE "Embedded wallet keys",
// spec 02 "Recovery by cloud drive"): the consent's result is exchanged at the
// server for the provider access, which never leaves this page; the recovery
// key is created here, stored in the user's drive under a fresh key id, and
// the recovery share is sealed under it.

export type CloudRecoveryChoice = Extract<RecoveryChoice, { method: CloudRecoveryProvider }>
export type CloudRecoveryMaterial = Extract<RecoveryMaterial, { method: CloudRecoveryProvider }>

export interface CloudRecoveryDeps {
  appId: string
  api: ServerApi
  /** The key store for an exchanged consent (the real Drive / CloudKit clients by default). */
  keyStore: (access: RecoveryOAuthAuthenticateResponse) => CloudKeyStore
}

/** A new key id: 16 random bytes, base64url (22 characters; protocol `recoveryKeyIdSchema`). */
export function newKeyId(): string {
  return bytesToBase64url(crypto.getRandomValues(new Uint8Array(16)))
}

/**
 * Errors that already tell the UI what to do, kept as they are: the session
 * is gone, the OAuth state is not this browser's, the app has no cloud
 * recovery, or the server is rate limiting; and a consent the server could
 * not exchange (RECOVERY_OAUTH_FAILED, see `openDrive`). Everything else in a
 * cloud step becomes CLOUD_BACKUP_FAILED / CLOUD_RECOVERY_FAILED.
 */
const PRECISE_CODES = new Set<ErrorCode>([
  'UNAUTHORIZED',
  'INVALID_REFRESH_TOKEN',
  'NOT_AUTHENTICATED',
  'WALLET_NOT_AUTHENTICATED',
  'OAUTH_STATE_MISMATCH',
  'CLOUD_RECOVERY_NOT_CONFIGURED',
  'TOO_MANY_REQUESTS',
  'RECOVERY_OAUTH_FAILED',
])

/** What went wrong, in words without secrets (server messages and store errors carry none). */
function causeOf(error: unknown): string {
  if (error instanceof PageError || error instanceof CloudKeyStoreError) return error.message
  if (isEnclaveError(error, 'DECRYPTION_FAILED'))
    return "the stored key does not open this wallet's recovery share"
  return 'unexpected error'
}

/** Runs one cloud step; its failures become `code` with a message naming the provider and cause. */
async function cloudStep<T>(
  code: 'CLOUD_BACKUP_FAILED' | 'CLOUD_RECOVERY_FAILED',
  provider: CloudRecoveryProvider,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step()
  } catch (error) {
    if (error instanceof PageError && PRECISE_CODES.has(error.code)) throw error
    throw new PageError(code, `${cloudRecoveryProviderNames[provider]}: ${causeOf(error)}`)
  }
}

/** The consent must be of the method's provider: a mismatch is a host bug, refused up front. */
function assertProvider(oauth: CloudOAuthResult, method: CloudRecoveryProvider): void {
  if (oauth.provider !== method)
    throw new PageError('INVALID_PAYLOAD', `The consent is for ${oauth.provider}, not ${method}`)
}

/**
 * Exchanges the consent at the server and opens the drive it grants. A
 * consent the server or the provider refused is spec 02 §8 'Recovery OAuth
 * failed' (the screens still say '{Recovery|Back up} with {provider}
 * unsuccessful'); precise codes pass as they are.
 */
async function openDrive(
  deps: CloudRecoveryDeps,
  token: string,
  oauth: CloudOAuthResult,
): Promise<CloudKeyStore> {
  const access = await deps.api.cloudAuthenticate(token, oauth).catch((error: unknown) => {
    if (error instanceof PageError && PRECISE_CODES.has(error.code)) throw error
    const name = cloudRecoveryProviderNames[oauth.provider]
    throw new PageError('RECOVERY_OAUTH_FAILED', `${name}: ${causeOf(error)}`)
  })
  if (access.provider !== oauth.provider)
    throw new PageError('INTERNAL_ERROR', 'the server granted another provider')
  return deps.keyStore(access)
}

/**
 * Backs the device share up to the user's drive: exchange the consent, store
 * a new random key under a new key id, seal the share under it. The answer is
 * the recovery material for the server (it holds the key id, never the key).
 *
 * @example
 * ```ts
 * const recovery = await sealWithCloudKey(deps, token, { method: 'google-drive', oauth }, share, entropyId)
 * await api.create(token, { ...wallet, recovery })
 * ```
 */
export async function sealWithCloudKey(
  deps: CloudRecoveryDeps,
  token: string,
  choice: CloudRecoveryChoice,
  deviceShare: Uint8Array,
  entropyId: string,
): Promise<CloudRecoveryMaterial> {
  assertProvider(choice.oauth, choice.method)
  const key = generateRecoveryKey()
  try {
    return await cloudStep('CLOUD_BACKUP_FAILED', choice.method, async () => {
      const drive = await openDrive(deps, token, choice.oauth)
      const keyId = newKeyId()
      await drive.putRecoveryKey({ appId: deps.appId, entropyId, keyId, key })
      const ciphertext = await sealRecoveryShare(deviceShare, key, entropyId)
      return { method: choice.method, ciphertext, key_id: keyId }
    })
  } finally {
    key.fill(0)
  }
}

/**
 * Opens a cloud-sealed recovery share: exchange the consent, fetch the key
 * named by `material.key_id` from the drive, open the share. Without a
 * consent the answer is RECOVERY_REQUIRED: the host must first send the user
 * through the provider's consent and call again with `oauth`.
 *
 * @example
 * ```ts
 * const deviceShare = await openWithCloudKey(deps, token, data.oauth, material, entropyId)
 * ```
 */
export async function openWithCloudKey(
  deps: CloudRecoveryDeps,
  token: string,
  oauth: CloudOAuthResult | undefined,
  material: CloudRecoveryMaterial,
  entropyId: string,
): Promise<Uint8Array> {
  const name = cloudRecoveryProviderNames[material.method]
  if (!oauth)
    throw new PageError('RECOVERY_REQUIRED', `Recovery with ${name} needs the user's consent`)
  assertProvider(oauth, material.method)
  return cloudStep('CLOUD_RECOVERY_FAILED', material.method, async () => {
    const drive = await openDrive(deps, token, oauth)
    const key = await drive.getRecoveryKey({ appId: deps.appId, keyId: material.key_id })
    try {
      return await openRecoveryShare(material.ciphertext, key, entropyId)
    } finally {
      key.fill(0)
    }
  })
}
