import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import {
  type CloudFetch,
  type CloudKeyStore,
  CloudKeyStoreError,
  defaultFetch,
  providerRequestInit,
  recoveryKeyName,
} from './key-store.ts'

export interface CreateGoogleDriveKeyStoreParameters {
  /** Google APIs base (`https://www.googleapis.com`): Drive at /drive/v3, uploads at /upload/drive/v3. */
  apiBaseUrl: string
  /** An OAuth access token with the `drive.appdata` scope. */
  accessToken: string
  fetch?: CloudFetch
}

/** What the Drive file holds (the contract's file format, version 1). */
interface RecoveryKeyFile {
  version: 1
  app_id: string
  entropy_id: string
  key_id: string
  /** base64url of the 32-byte key. */
  recovery_key: string
}

const PROVIDER = 'google-drive'
const RECOVERY_KEY_BYTES = 32

/**
 * Recovery keys in the user's Google Drive app-data folder (Drive API v3,
 * https://developers.google.com/drive/api/guides/appdata): one JSON file
 * `latchkey-recovery-{appId}-{keyId}.json` per backup, visible only to this
 * app's OAuth client and the signed-in Google account.
 *
 * @example
 * ```ts
 * const drive = createGoogleDriveKeyStore({ apiBaseUrl, accessToken })
 * await drive.putRecoveryKey({ appId, entropyId, keyId, key })
 * const again = await drive.getRecoveryKey({ appId, keyId })
 * ```
 */
export function createGoogleDriveKeyStore(
  params: CreateGoogleDriveKeyStoreParameters,
): CloudKeyStore {
  const doFetch = params.fetch ?? defaultFetch
  const base = params.apiBaseUrl.replace(/\/+$/, '')
  const authorization = `Bearer ${params.accessToken}`

  async function call(what: string, url: string, init: RequestInit = {}): Promise<Response> {
    let res: Response
    try {
      res = await doFetch(url, {
        ...providerRequestInit,
        ...init,
        headers: { authorization, ...(init.headers as Record<string, string>) },
      })
    } catch (cause) {
      throw new CloudKeyStoreError(PROVIDER, 'network', `Google Drive unreachable (${what})`, {
        cause,
      })
    }
    if (!res.ok) throw await driveError(what, res)
    return res
  }

  return {
    provider: PROVIDER,

    async putRecoveryKey({ appId, entropyId, keyId, key }) {
      const file: RecoveryKeyFile = {
        version: 1,
        app_id: appId,
        entropy_id: entropyId,
        key_id: keyId,
        recovery_key: bytesToBase64url(key),
      }
      const metadata = {
        name: `${recoveryKeyName(appId, keyId)}.json`,
        parents: ['appDataFolder'],
        mimeType: 'application/json',
      }
      const { contentType, body } = multipartRelated(metadata, JSON.stringify(file))
      const res = await call(
        'upload',
        `${base}/upload/drive/v3/files?uploadType=multipart&fields=id`,
        { method: 'POST', headers: { 'content-type': contentType }, body },
      )
      const created = (await readJson(res)) as { id?: unknown } | undefined
      if (typeof created?.id !== 'string') {
        throw new CloudKeyStoreError(
          PROVIDER,
          'invalid-response',
          'Google Drive upload: no file id',
        )
      }
    },

    async getRecoveryKey({ appId, keyId }) {
      const name = `${recoveryKeyName(appId, keyId)}.json`
      const query = new URLSearchParams({
        spaces: 'appDataFolder',
        q: `name = '${escapeQueryString(name)}' and trashed = false`,
        fields: 'files(id,name)',
      })
      const listed = (await readJson(await call('list', `${base}/drive/v3/files?${query}`))) as
        | { files?: Array<{ id?: unknown; name?: unknown }> }
        | undefined
      const found = listed?.files?.find((f) => f.name === name && typeof f.id === 'string')
      if (!found) {
        throw new CloudKeyStoreError(
          PROVIDER,
          'not-found',
          'No recovery key for this wallet in this Google Drive account',
        )
      }
      const id = encodeURIComponent(found.id as string)
      const media = await call('download', `${base}/drive/v3/files/${id}?alt=media`)
      return keyOf((await readJson(media)) as Partial<RecoveryKeyFile> | undefined, appId, keyId)
    },
  }
}

/** The key of a downloaded file, checked against the name it was found under. */
function keyOf(file: Partial<RecoveryKeyFile> | undefined, appId: string, keyId: string) {
  const invalid = (why: string) =>
    new CloudKeyStoreError(PROVIDER, 'invalid-response', `Google Drive recovery key file: ${why}`)
  if (file?.version !== 1) throw invalid('unknown version')
  if (file.app_id !== appId || file.key_id !== keyId) throw invalid('another key')
  let key: Uint8Array
  try {
    key = base64urlToBytes(file.recovery_key as string)
  } catch (cause) {
    throw new CloudKeyStoreError(PROVIDER, 'invalid-response', 'Google Drive: malformed key', {
      cause,
    })
  }
  if (key.length !== RECOVERY_KEY_BYTES) throw invalid('the key is not 32 bytes')
  return key
}

/**
 * A Drive v3 multipart upload body (multipart/related: JSON metadata, then
 * the media). The boundary is random, so content cannot collide with it.
 */
function multipartRelated(metadata: object, media: string) {
  const boundary = `latchkey-${bytesToBase64url(crypto.getRandomValues(new Uint8Array(12)))}`
  const body =
    `--${boundary}\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(metadata)}\r\n` +
    `--${boundary}\r\ncontent-type: application/json\r\n\r\n${media}\r\n` +
    `--${boundary}--`
  return { contentType: `multipart/related; boundary=${boundary}`, body }
}

/** Drive search strings are single-quoted; `\` and `'` are escaped with `\`. */
function escapeQueryString(value: string): string {
  return value.replace(/[\\']/g, (ch) => `\\${ch}`)
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return await res.json()
  } catch (cause) {
    throw new CloudKeyStoreError(PROVIDER, 'invalid-response', 'Google Drive: not JSON', { cause })
  }
}

/** Drive's `{error: {code, message, status, errors: [{reason}]}}` as a store error. */
async function driveError(what: string, res: Response): Promise<CloudKeyStoreError> {
  let detail = ''
  try {
    const body = (await res.json()) as {
      error?: { status?: unknown; errors?: { reason?: unknown }[] }
    }
    const reason = body.error?.errors?.[0]?.reason ?? body.error?.status
    if (typeof reason === 'string') detail = ` ${reason}`
  } catch {}
  const reason =
    res.status === 401 || res.status === 403
      ? 'unauthorized'
      : res.status === 404
        ? 'not-found'
        : 'rejected'
  return new CloudKeyStoreError(
    PROVIDER,
    reason,
    `Google Drive ${what} answered ${res.status}${detail}`,
    { status: res.status },
  )
}
