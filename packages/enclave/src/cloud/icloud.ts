import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import {
  type CloudFetch,
  type CloudKeyStore,
  CloudKeyStoreError,
  defaultFetch,
  providerRequestInit,
  recoveryKeyName,
} from './key-store.ts'

export interface CreateICloudKeyStoreParameters {
  /** CloudKit Web Services base (`https://api.apple-cloudkit.com`). */
  apiBaseUrl: string
  /** e.g. `iCloud.com.example.app` */
  containerId: string
  environment: 'development' | 'production'
  /** The app's CloudKit API token (not a secret). */
  apiToken: string
  /** The signed-in user's `ckWebAuthToken`. */
  webAuthToken: string
  fetch?: CloudFetch
}

const PROVIDER = 'icloud'
const RECORD_TYPE = 'LatchkeyRecoveryKey'
const RECOVERY_KEY_BYTES = 32

/** A record, or a per-record failure, of a records/modify or records/lookup answer. */
interface RecordResult {
  recordName?: unknown
  recordType?: unknown
  fields?: Record<string, { value?: unknown } | undefined>
  serverErrorCode?: unknown
}

/**
 * Recovery keys in the user's iCloud private database (CloudKit Web Services,
 * default zone): one `LatchkeyRecoveryKey` record named
 * `latchkey-recovery-{appId}-{keyId}` per backup, with fields `recoveryKey`
 * (base64url), `entropyId` and `appId`.
 *
 * @example
 * ```ts
 * const icloud = createICloudKeyStore({ apiBaseUrl, containerId, environment, apiToken, webAuthToken })
 * await icloud.putRecoveryKey({ appId, entropyId, keyId, key })
 * const again = await icloud.getRecoveryKey({ appId, keyId })
 * ```
 */
export function createICloudKeyStore(params: CreateICloudKeyStoreParameters): CloudKeyStore {
  const doFetch = params.fetch ?? defaultFetch
  const base = params.apiBaseUrl.replace(/\/+$/, '')
  const database = `${base}/database/1/${encodeURIComponent(params.containerId)}/${params.environment}/private`
  const credentials = new URLSearchParams({
    ckAPIToken: params.apiToken,
    ckWebAuthToken: params.webAuthToken,
  })

  /** POSTs to `records/{operation}` and answers the first entry of `records`. */
  async function records(operation: 'modify' | 'lookup', body: unknown): Promise<RecordResult> {
    let res: Response
    try {
      res = await doFetch(`${database}/records/${operation}?${credentials}`, {
        ...providerRequestInit,
        method: 'POST',
        // text/plain keeps this a CORS simple request (no preflight), as CloudKit JS does.
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify(body),
      })
    } catch (cause) {
      throw new CloudKeyStoreError(PROVIDER, 'network', `iCloud unreachable (${operation})`, {
        cause,
      })
    }
    let json: { records?: RecordResult[]; serverErrorCode?: unknown } | undefined
    try {
      json = (await res.json()) as typeof json
    } catch {}
    if (!res.ok) throw cloudKitError(operation, res.status, json?.serverErrorCode)
    const first = json?.records?.[0]
    if (!first) {
      throw new CloudKeyStoreError(PROVIDER, 'invalid-response', `iCloud ${operation}: no record`)
    }
    return first
  }

  return {
    provider: PROVIDER,

    async putRecoveryKey({ appId, entropyId, keyId, key }) {
      const recordName = recoveryKeyName(appId, keyId)
      const result = await records('modify', {
        operations: [
          {
            // create, never replace: a key id names exactly one key (EXISTS otherwise).
            operationType: 'create',
            record: {
              recordType: RECORD_TYPE,
              recordName,
              fields: {
                recoveryKey: { value: bytesToBase64url(key) },
                entropyId: { value: entropyId },
                appId: { value: appId },
              },
            },
          },
        ],
      })
      if (result.serverErrorCode !== undefined) {
        throw recordError('modify', result.serverErrorCode)
      }
      if (result.recordName !== recordName) {
        throw new CloudKeyStoreError(PROVIDER, 'invalid-response', 'iCloud modify: another record')
      }
    },

    async getRecoveryKey({ appId, keyId }) {
      const recordName = recoveryKeyName(appId, keyId)
      const result = await records('lookup', { records: [{ recordName }] })
      if (result.serverErrorCode !== undefined) {
        throw recordError('lookup', result.serverErrorCode)
      }
      const invalid = (why: string) =>
        new CloudKeyStoreError(PROVIDER, 'invalid-response', `iCloud recovery key record: ${why}`)
      if (result.recordName !== recordName || result.recordType !== RECORD_TYPE) {
        throw invalid('another record')
      }
      if (result.fields?.appId?.value !== appId) throw invalid('another app')
      let key: Uint8Array
      try {
        key = base64urlToBytes(result.fields?.recoveryKey?.value as string)
      } catch (cause) {
        throw new CloudKeyStoreError(PROVIDER, 'invalid-response', 'iCloud: malformed key', {
          cause,
        })
      }
      if (key.length !== RECOVERY_KEY_BYTES) throw invalid('the key is not 32 bytes')
      return key
    },
  }
}

/**
 * A request-level CloudKit error (Error Codes: 401 AUTHENTICATION_FAILED,
 * 421 AUTHENTICATION_REQUIRED, 403 ACCESS_DENIED, 404 NOT_FOUND / ZONE_NOT_FOUND, …).
 */
function cloudKitError(operation: string, status: number, code: unknown): CloudKeyStoreError {
  const reason =
    status === 401 || status === 403 || status === 421
      ? 'unauthorized'
      : status === 404
        ? 'not-found'
        : 'rejected'
  const detail = typeof code === 'string' ? ` ${code}` : ''
  return new CloudKeyStoreError(
    PROVIDER,
    reason,
    `iCloud ${operation} answered ${status}${detail}`,
    {
      status,
    },
  )
}

/** A per-record failure (`serverErrorCode` inside `records`). */
function recordError(operation: string, code: unknown): CloudKeyStoreError {
  if (code === 'NOT_FOUND') {
    return new CloudKeyStoreError(
      PROVIDER,
      'not-found',
      'No recovery key for this wallet in this iCloud account',
    )
  }
  const reason =
    code === 'AUTHENTICATION_REQUIRED' || code === 'ACCESS_DENIED' ? 'unauthorized' : 'rejected'
  return new CloudKeyStoreError(PROVIDER, reason, `iCloud ${operation}: ${String(code)}`)
}
