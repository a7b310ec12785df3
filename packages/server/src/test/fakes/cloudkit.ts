import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import {
  type CorsOrigins,
  escapeHtml,
  type FakeRequest,
  handleCors,
  listen,
  page,
  redirect,
  sendHtml,
  sendJson,
} from './http.ts'

/**
 * A local CloudKit Web Services for tests (CloudKit Web Services Reference:
 * "Composing Web Service Requests", "Modifying Records (records/modify)",
 * "Fetching Records by Record Name (records/lookup)", "Fetching Current User
 * Identity (users/caller)", "Error Codes"). One container and environment,
 * accessed with an API token; the private database's default zone per
 * account. Errors are `{uuid, serverErrorCode, reason}` with the documented
 * HTTP statuses; per-record failures come back inside `records` with 200.
 */

export interface FakeCloudKitOptions {
  /** e.g. 'iCloud.com.example.app' */
  containerId: string
  /** Default 'development'. */
  environment?: 'development' | 'production'
  apiToken: string
  /** Where sign-in redirects with ?ckWebAuthToken= (the API token's configured callback). Settable later. */
  signInCallbackUrl?: string
  /** Default ['alice@icloud.com', 'bob@icloud.com']. */
  accounts?: string[]
  /** Access-Control-Allow-Origin policy for the API (default '*'). */
  corsOrigins?: CorsOrigins
  /** Default 0 (a free port); always on 127.0.0.1. */
  port?: number
  /** Clock for record timestamps (default Date.now). */
  now?: () => number
}

export interface FakeCloudKitRecord {
  recordName: string
  recordType: string
  fields: Record<string, { value: unknown }>
}

export interface FakeCloudKit {
  /** http://127.0.0.1:PORT */
  url: string
  /** `url`: the API lives at /database/1/{container}/{environment}/… */
  apiBaseUrl: string
  setSignInCallbackUrl(url: string): void
  /** The account's private-database records (assertions). */
  records(account: string): FakeCloudKitRecord[]
  /** A web auth token for `account`, as the sign-in page's redirect would carry. */
  issueWebAuthToken(account: string): string
  close(): Promise<void>
}

const SIGN_IN_PATH = '/signin'
const APPROVE_PATH = '/signin/approve'
const DEFAULT_ZONE = '_defaultZone'

interface StoredRecord extends FakeCloudKitRecord {
  recordChangeTag: string
  created: number
  modified: number
}

/** One entry of a records/modify `operations` array or a records/lookup `records` array. */
interface RecordInput {
  recordName?: unknown
  recordType?: unknown
  recordChangeTag?: unknown
  fields?: unknown
}

/**
 * Starts the fake on 127.0.0.1.
 *
 * @example
 * const ck = await startFakeCloudKit({ containerId: 'iCloud.com.example.app', apiToken: 'tok' })
 * afterAll(() => ck.close())
 * const webAuthToken = ck.issueWebAuthToken('alice@icloud.com')
 */
export async function startFakeCloudKit(options: FakeCloudKitOptions): Promise<FakeCloudKit> {
  const now = options.now ?? Date.now
  const environment = options.environment ?? 'development'
  const accounts = options.accounts ?? ['alice@icloud.com', 'bob@icloud.com']
  const cors = options.corsOrigins ?? '*'
  const databasePrefix = `/database/1/${options.containerId}/${environment}/`
  let callbackUrl = options.signInCallbackUrl
  const webAuthTokens = new Map<string, string>()
  const databases = new Map<string, Map<string, StoredRecord>>()
  let baseUrl = ''

  function issueWebAuthToken(account: string): string {
    // Real tokens are standard base64 (with + / =): callers must URL-encode them.
    const token = `${randomBytes(2).readUInt16BE() % 200}__${randomBytes(36).toString('base64')}`
    webAuthTokens.set(token, account)
    return token
  }

  const database = (account: string) => {
    let db = databases.get(account)
    if (!db) {
      db = new Map()
      databases.set(account, db)
    }
    return db
  }

  const signInUrl = () =>
    `${baseUrl}${SIGN_IN_PATH}?ckAPIToken=${encodeURIComponent(options.apiToken)}`

  // --- sign-in pages -------------------------------------------------------

  function signIn(req: FakeRequest, res: ServerResponse) {
    if (req.url.searchParams.get('ckAPIToken') !== options.apiToken) {
      return sendHtml(res, 401, page('Error', '<h1>Unknown API token</h1>'))
    }
    const buttons = accounts
      .map(
        (a) =>
          `<button type="submit" name="account" value="${escapeHtml(a)}" data-account="${escapeHtml(a)}">${escapeHtml(a)}</button>`,
      )
      .join('')
    const body =
      `<h1>Sign in with your Apple ID</h1><p>to use iCloud with <b>${escapeHtml(options.containerId)}</b></p>` +
      `<form method="get" action="${APPROVE_PATH}">` +
      `<input type="hidden" name="ckAPIToken" value="${escapeHtml(options.apiToken)}">${buttons}` +
      '<button type="submit" name="action" value="cancel" data-action="cancel">Cancel</button>' +
      '</form>'
    sendHtml(res, 200, page('Sign in - iCloud', body))
  }

  function approve(req: FakeRequest, res: ServerResponse) {
    const q = req.url.searchParams
    if (q.get('ckAPIToken') !== options.apiToken) {
      return sendHtml(res, 401, page('Error', '<h1>Unknown API token</h1>'))
    }
    if (!callbackUrl) {
      return sendHtml(res, 400, page('Error', '<h1>No sign-in callback URL configured</h1>'))
    }
    const back = new URL(callbackUrl)
    // Cancel: back to the callback without a token (the caller treats that as cancelled).
    if (q.get('action') === 'cancel') return redirect(res, back.toString())
    const account = q.get('account') ?? ''
    if (!accounts.includes(account)) {
      return sendHtml(res, 400, page('Error', '<h1>Unknown account</h1>'))
    }
    back.searchParams.set('ckWebAuthToken', issueWebAuthToken(account))
    redirect(res, back.toString())
  }

  // --- web services ----------------------------------------------------------

  /** The signed-in account, or undefined after answering 401/421. */
  function caller(req: FakeRequest, res: ServerResponse): string | undefined {
    const q = req.url.searchParams
    if (q.get('ckAPIToken') !== options.apiToken) {
      ckError(res, 401, 'AUTHENTICATION_FAILED', 'Authentication failed')
      return undefined
    }
    const account = webAuthTokens.get(q.get('ckWebAuthToken') ?? '')
    if (!account) {
      ckError(res, 421, 'AUTHENTICATION_REQUIRED', 'request needs authorization', {
        redirectURL: signInUrl(),
      })
      return undefined
    }
    return account
  }

  function usersCaller(req: FakeRequest, res: ServerResponse) {
    const account = caller(req, res)
    if (account) sendJson(res, 200, { userRecordName: userRecordName(account) })
  }

  function modify(res: ServerResponse, account: string, body: Record<string, unknown>) {
    const operations = body.operations
    if (!Array.isArray(operations) || operations.length === 0) {
      return ckError(res, 400, 'BAD_REQUEST', 'missing required field operations')
    }
    const db = database(account)
    const records = operations.map((op: { operationType?: unknown; record?: RecordInput }) =>
      applyOperation(db, account, String(op?.operationType), op?.record ?? {}),
    )
    sendJson(res, 200, { records })
  }

  function applyOperation(
    db: Map<string, StoredRecord>,
    account: string,
    operationType: string,
    input: RecordInput,
  ): Record<string, unknown> {
    const recordName = typeof input.recordName === 'string' ? input.recordName : randomUUID()
    const existing = db.get(recordName)
    const fail = (serverErrorCode: string, reason: string) => ({
      recordName,
      reason,
      serverErrorCode,
    })
    const staleTag = existing && input.recordChangeTag !== existing.recordChangeTag
    switch (operationType) {
      case 'create':
      case 'forceReplace': {
        if (operationType === 'create' && existing) {
          return fail('EXISTS', 'record to insert already exists')
        }
        const fields = parseFields(input.fields)
        if (typeof input.recordType !== 'string' || !fields) {
          return fail('BAD_REQUEST', 'recordType and fields are required')
        }
        const t = now()
        const record: StoredRecord = {
          recordName,
          recordType: input.recordType,
          fields,
          recordChangeTag: changeTag(),
          created: existing?.created ?? t,
          modified: t,
        }
        db.set(recordName, record)
        return recordResponse(record, account)
      }
      case 'update':
      case 'forceUpdate': {
        if (!existing) return fail('NOT_FOUND', 'Record not found')
        if (operationType === 'update' && staleTag) return fail('CONFLICT', 'oplock error')
        const fields = parseFields(input.fields ?? {})
        if (!fields) return fail('BAD_REQUEST', 'invalid fields')
        Object.assign(existing.fields, fields)
        existing.recordChangeTag = changeTag()
        existing.modified = now()
        return recordResponse(existing, account)
      }
      case 'delete':
      case 'forceDelete': {
        if (!existing) return fail('NOT_FOUND', 'Record not found')
        if (operationType === 'delete' && staleTag) return fail('CONFLICT', 'oplock error')
        db.delete(recordName)
        return { recordName, deleted: true }
      }
      default:
        return fail('BAD_REQUEST', `Unsupported operationType: ${operationType}`)
    }
  }

  function lookup(res: ServerResponse, account: string, body: Record<string, unknown>) {
    const wanted = body.records
    if (!Array.isArray(wanted) || wanted.length === 0) {
      return ckError(res, 400, 'BAD_REQUEST', 'missing required field records')
    }
    const db = database(account)
    const records = wanted.map((entry: RecordInput) => {
      const recordName = String(entry?.recordName)
      const record = db.get(recordName)
      return record
        ? recordResponse(record, account)
        : { recordName, reason: 'Record not found', serverErrorCode: 'NOT_FOUND' }
    })
    sendJson(res, 200, { records })
  }

  function api(req: FakeRequest, res: ServerResponse) {
    if (handleCors(req, res, cors, 'content-type')) return
    const path = req.url.pathname
    if (!path.startsWith(databasePrefix)) {
      // API tokens belong to one container and environment.
      return ckError(res, 401, 'AUTHENTICATION_FAILED', 'Unknown container or environment')
    }
    const operation = path.slice(databasePrefix.length)
    if (operation === 'public/users/caller' && req.method === 'GET') return usersCaller(req, res)
    if (operation !== 'private/records/modify' && operation !== 'private/records/lookup') {
      return ckError(res, 404, 'NOT_FOUND', `This fake does not serve ${operation}`)
    }
    if (req.method !== 'POST') return ckError(res, 400, 'BAD_REQUEST', 'Expected POST')
    const account = caller(req, res)
    if (!account) return
    const body = parseJson(req.body)
    if (!body) return ckError(res, 400, 'BAD_REQUEST', 'Invalid JSON body')
    const zoneName = (body.zoneID as { zoneName?: unknown } | undefined)?.zoneName
    if (zoneName !== undefined && zoneName !== DEFAULT_ZONE) {
      return ckError(res, 404, 'ZONE_NOT_FOUND', 'Zone does not exist')
    }
    if (operation === 'private/records/modify') return modify(res, account, body)
    lookup(res, account, body)
  }

  const server = await listen((req, res) => {
    const path = req.url.pathname
    if (path === SIGN_IN_PATH && req.method === 'GET') return signIn(req, res)
    if (path === APPROVE_PATH && req.method === 'GET') return approve(req, res)
    if (path.startsWith('/database/')) return api(req, res)
    ckError(res, 404, 'NOT_FOUND', 'Not Found')
  }, options.port)
  baseUrl = server.url

  return {
    url: server.url,
    apiBaseUrl: server.url,
    setSignInCallbackUrl: (url) => {
      callbackUrl = url
    },
    records: (account) =>
      [...(databases.get(account)?.values() ?? [])].map(({ recordName, recordType, fields }) => ({
        recordName,
        recordType,
        fields,
      })),
    issueWebAuthToken,
    close: server.close,
  }
}

// --- helpers -----------------------------------------------------------------

function ckError(
  res: ServerResponse,
  status: number,
  serverErrorCode: string,
  reason: string,
  extra: Record<string, string> = {},
): void {
  sendJson(res, status, { uuid: randomUUID(), serverErrorCode, reason, ...extra })
}

/** A stable, opaque user record name per account (CloudKit's start with '_'). */
function userRecordName(account: string): string {
  return `_${createHash('sha256').update(account).digest('hex').slice(0, 32)}`
}

const changeTag = () => randomBytes(4).toString('hex')

/** Record fields: `{name: {value, type?}}`; undefined when malformed. */
function parseFields(fields: unknown): Record<string, { value: unknown }> | undefined {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return undefined
  const entries = Object.entries(fields as Record<string, unknown>)
  const valid = entries.every(
    ([, v]) => v !== null && typeof v === 'object' && 'value' in (v as object),
  )
  return valid ? structuredClone(fields as Record<string, { value: unknown }>) : undefined
}

/** The Record dictionary of the reference (the keys modelled here). */
function recordResponse(record: StoredRecord, account: string): Record<string, unknown> {
  const stamp = (timestamp: number) => ({
    timestamp,
    userRecordName: userRecordName(account),
    deviceID: '1',
  })
  return {
    recordName: record.recordName,
    recordType: record.recordType,
    recordChangeTag: record.recordChangeTag,
    fields: structuredClone(record.fields),
    created: stamp(record.created),
    modified: stamp(record.modified),
    deleted: false,
  }
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
