import type { CloudRecoveryProvider } from '@latchkey/protocol/schemas'

/**
 * Where a cloud recovery key lives: the user's own Google Drive app-data
 * folder or iCloud private database (ARCHITECTURE "Embedded wallet keys").
 * The enclave writes a fresh key per backup under a fresh key id and never
 * overwrites one, so a backup the server did not record strands nothing.
 */
export interface CloudKeyStore {
  readonly provider: CloudRecoveryProvider
  /** Stores `key` as a new file / record named after `appId` and `keyId`. */
  putRecoveryKey(params: PutRecoveryKeyParameters): Promise<void>
  /** The key stored under `appId` and `keyId` in the signed-in account; `not-found` when absent. */
  getRecoveryKey(params: GetRecoveryKeyParameters): Promise<Uint8Array>
}

export interface PutRecoveryKeyParameters {
  appId: string
  /** The wallet's entropy id, kept beside the key so a user can tell backups apart. */
  entropyId: string
  /** 16 random bytes, base64url (protocol `recoveryKeyIdSchema`). */
  keyId: string
  /** The 32-byte recovery key. */
  key: Uint8Array
}

export interface GetRecoveryKeyParameters {
  appId: string
  keyId: string
}

/** `fetch` as the stores call it (injectable: tests pass Node's own). */
export type CloudFetch = (input: string, init: RequestInit) => Promise<Response>

/**
 * Why a cloud call failed:
 * - `not-found`: no key under this name in the signed-in account (another account, or deleted);
 * - `unauthorized`: the provider refused the token (expired, revoked, scope not granted, bad API token);
 * - `network`: the provider could not be reached;
 * - `rejected`: the provider refused the write or answered an error (quota, conflict, 5xx);
 * - `invalid-response`: an answer or a stored key that is not what the enclave wrote.
 */
export type CloudKeyStoreErrorReason =
  | 'not-found'
  | 'unauthorized'
  | 'network'
  | 'rejected'
  | 'invalid-response'

/**
 * The one error the cloud key stores throw. Messages name the provider, the
 * HTTP status and the provider's error code, never a token or a key.
 *
 * @example
 * ```ts
 * try {
 *   key = await store.getRecoveryKey({ appId, keyId })
 * } catch (error) {
 *   if (error instanceof CloudKeyStoreError && error.reason === 'not-found') askForAnotherAccount()
 * }
 * ```
 */
export class CloudKeyStoreError extends Error {
  override readonly name = 'CloudKeyStoreError'
  /** The provider's HTTP status, when it answered. */
  readonly status: number | undefined

  constructor(
    readonly provider: CloudRecoveryProvider,
    readonly reason: CloudKeyStoreErrorReason,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.status = options?.status
  }
}

/** The record name of a key (`latchkey-recovery-{appId}-{keyId}`); Drive files add `.json`. */
export function recoveryKeyName(appId: string, keyId: string): string {
  return `latchkey-recovery-${appId}-${keyId}`
}

/**
 * Options every call to a provider uses: no cookies, no cache, no referrer,
 * and redirects not followed (a redirect answers a response that is not ok,
 * so tokens in the URL never travel on). 'manual' rather than 'error':
 * undici (Node 20) fails a POST answered 421, CloudKit's sign-in answer,
 * when redirects are 'error'.
 */
export const providerRequestInit: RequestInit = {
  credentials: 'omit',
  cache: 'no-store',
  redirect: 'manual',
  referrerPolicy: 'no-referrer',
}

/** The global `fetch`, looked up at call time (so tests and polyfills that replace it are seen). */
export const defaultFetch: CloudFetch = (input, init) => globalThis.fetch(input, init)
