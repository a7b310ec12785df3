import { createHash, timingSafeEqual } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import {
  type CorsOrigins,
  escapeHtml,
  type FakeRequest,
  handleCors,
  listen,
  page,
  parseForm,
  randomToken,
  redirect,
  sendHtml,
  sendJson,
} from './http.ts'

/**
 * A local Google for tests: the OAuth 2.0 web-server flow with PKCE
 * (https://developers.google.com/identity/protocols/oauth2/web-server) and
 * the part of Drive API v3 a recovery key needs: files in the
 * `appDataFolder` space (https://developers.google.com/drive/api/guides/appdata).
 * Error bodies follow Google's documented shapes: the token endpoint answers
 * RFC 6749 §5.2 `{error, error_description}`, Drive answers
 * `{error: {code, message, errors, status}}`.
 */

export const DRIVE_APPDATA_SCOPE = 'https://www.googleapis.com/auth/drive.appdata'

/** Scopes the consent page accepts (others: `invalid_scope`, as Google answers). */
const KNOWN_SCOPES = new Set([
  DRIVE_APPDATA_SCOPE,
  'https://www.googleapis.com/auth/drive.file',
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/userinfo.profile',
  'openid',
  'email',
  'profile',
])

const AUTHORIZE_PATH = '/o/oauth2/v2/auth'
const APPROVE_PATH = '/o/oauth2/v2/approve'
const TOKEN_PATH = '/token'
const FILES_PATH = '/drive/v3/files'
const UPLOAD_PATH = '/upload/drive/v3/files'

/** Authorization codes are short-lived (RFC 6749 §4.1.2 recommends at most 10 minutes). */
const CODE_TTL_MS = 10 * 60_000
/** Google's access tokens last an hour; it reports 3599 seconds. */
const ACCESS_TOKEN_TTL_S = 3599

export interface FakeGoogleOptions {
  clients: Array<{ clientId: string; clientSecret: string }>
  /** Accounts offered on the consent page (emails); default ['alice@example.com', 'bob@example.com']. */
  accounts?: string[]
  /** Access-Control-Allow-Origin policy for the Drive API: exact origins, or '*' (default '*'). */
  corsOrigins?: CorsOrigins
  /** Default 0 (a free port); always on 127.0.0.1. */
  port?: number
  /** Clock for code and token expiry (default Date.now). */
  now?: () => number
}

export interface FakeGoogle {
  /** http://127.0.0.1:PORT */
  url: string
  /** `${url}/o/oauth2/v2/auth` */
  authorizationUrl: string
  /** `${url}/token` */
  tokenUrl: string
  /** `url`: Drive at /drive/v3/files, uploads at /upload/drive/v3/files. */
  apiBaseUrl: string
  /** Files in an account's appDataFolder, of every client (assertions). */
  files(account: string): Array<{ id: string; name: string; content: string }>
  /** Issues an authorization code as the consent page would (server tests skip the browser). */
  issueCode(params: {
    clientId: string
    redirectUri: string
    codeChallenge: string
    account: string
    scope?: string
  }): string
  /** Number of token requests seen (e.g. to assert single use). */
  readonly tokenRequests: number
  close(): Promise<void>
}

interface AuthorizationRequest {
  clientId: string
  redirectUri: string
  scope: string
  state: string
  codeChallenge: string
}

interface IssuedCode {
  clientId: string
  redirectUri: string
  codeChallenge: string
  account: string
  scope: string
  expiresAt: number
  used: boolean
  /** The token this code was exchanged for: revoked if the code is replayed (RFC 6749 §4.1.2). */
  accessToken?: string
}

interface AccessToken {
  clientId: string
  account: string
  scope: string
  expiresAt: number
  revoked: boolean
}

interface DriveFile {
  id: string
  name: string
  mimeType: string
  content: string
  account: string
  /** appDataFolder is per app: only the client that wrote a file sees it. */
  clientId: string
  createdTime: string
}

/**
 * Starts the fake on 127.0.0.1.
 *
 * @example
 * const google = await startFakeGoogle({ clients: [{ clientId: 'cid', clientSecret: 'secret' }] })
 * afterAll(() => google.close())
 * const code = google.issueCode({ clientId: 'cid', redirectUri, codeChallenge, account: 'alice@example.com' })
 */
export async function startFakeGoogle(options: FakeGoogleOptions): Promise<FakeGoogle> {
  const now = options.now ?? Date.now
  const accounts = options.accounts ?? ['alice@example.com', 'bob@example.com']
  const cors = options.corsOrigins ?? '*'
  const clients = new Map(options.clients.map((c) => [c.clientId, c.clientSecret]))
  const pending = new Map<string, AuthorizationRequest>()
  const codes = new Map<string, IssuedCode>()
  const tokens = new Map<string, AccessToken>()
  const files: DriveFile[] = []
  let tokenRequests = 0

  function issueCode(params: {
    clientId: string
    redirectUri: string
    codeChallenge: string
    account: string
    scope?: string
  }): string {
    const code = randomToken('4/0A', 32)
    codes.set(code, {
      clientId: params.clientId,
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      account: params.account,
      scope: params.scope ?? DRIVE_APPDATA_SCOPE,
      expiresAt: now() + CODE_TTL_MS,
      used: false,
    })
    return code
  }

  // --- OAuth: consent page -------------------------------------------------

  function authorize(req: FakeRequest, res: ServerResponse) {
    const q = req.url.searchParams
    const clientId = q.get('client_id') ?? ''
    if (!clients.has(clientId)) {
      return errorPage(res, 401, 'invalid_client', 'The OAuth client was not found.')
    }
    const redirectUri = q.get('redirect_uri') ?? ''
    if (!/^https?:\/\//.test(redirectUri)) {
      return errorPage(res, 400, 'invalid_request', 'Missing or invalid redirect_uri.')
    }
    if (q.get('response_type') !== 'code') {
      return errorPage(res, 400, 'unsupported_response_type', 'Only response_type=code.')
    }
    const scope = (q.get('scope') ?? '').trim()
    const scopes = scope.split(/\s+/)
    if (!scope || scopes.some((s) => !KNOWN_SCOPES.has(s))) {
      return errorPage(res, 400, 'invalid_scope', `Some requested scopes were invalid: ${scope}`)
    }
    const state = q.get('state') ?? ''
    if (!state) return errorPage(res, 400, 'invalid_request', 'Missing required parameter: state')
    const codeChallenge = q.get('code_challenge') ?? ''
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
      return errorPage(res, 400, 'invalid_request', 'Expected an S256 code_challenge.')
    }
    const requestId = randomToken('', 16)
    pending.set(requestId, { clientId, redirectUri, scope, state, codeChallenge })
    sendHtml(res, 200, consentPage(requestId, clientId, scope, accounts))
  }

  function approve(req: FakeRequest, res: ServerResponse) {
    const q = req.url.searchParams
    const requestId = q.get('request') ?? ''
    const request = pending.get(requestId)
    if (!request) return errorPage(res, 400, 'invalid_request', 'Unknown or used consent request.')
    pending.delete(requestId)
    const back = new URL(request.redirectUri)
    back.searchParams.set('state', request.state)
    if (q.get('action') === 'cancel') {
      back.searchParams.set('error', 'access_denied')
      return redirect(res, back.toString())
    }
    const account = q.get('account') ?? ''
    if (!accounts.includes(account)) return errorPage(res, 400, 'invalid_request', 'No account.')
    back.searchParams.set('code', issueCode({ ...request, account }))
    back.searchParams.set('scope', request.scope)
    redirect(res, back.toString())
  }

  // --- OAuth: token endpoint -----------------------------------------------

  function token(req: FakeRequest, res: ServerResponse) {
    tokenRequests++
    const type = req.headers['content-type'] ?? ''
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      return oauthError(res, 400, 'invalid_request', 'Expected application/x-www-form-urlencoded.')
    }
    const form = parseForm(req.body)
    const client = clientCredentials(req.headers.authorization, form)
    if (client === 'ambiguous') {
      return oauthError(res, 400, 'invalid_request', 'Use one client authentication method.')
    }
    if (!client || !clients.has(client.id)) {
      return oauthError(res, 401, 'invalid_client', 'The OAuth client was not found.')
    }
    if (!safeEqual(clients.get(client.id) ?? '', client.secret)) {
      return oauthError(res, 401, 'invalid_client', 'Unauthorized')
    }
    const grantType = form.get('grant_type')
    if (grantType !== 'authorization_code') {
      return oauthError(res, 400, 'unsupported_grant_type', `Invalid grant_type: ${grantType}`)
    }
    const code = form.get('code')
    if (!code) return oauthError(res, 400, 'invalid_request', 'Missing required parameter: code')
    const issued = codes.get(code)
    if (!issued) return oauthError(res, 400, 'invalid_grant', 'Malformed auth code.')
    if (issued.used) {
      // RFC 6749 §4.1.2: a replayed code revokes what it was exchanged for.
      const previous = issued.accessToken ? tokens.get(issued.accessToken) : undefined
      if (previous) previous.revoked = true
      return oauthError(res, 400, 'invalid_grant', 'Bad Request')
    }
    issued.used = true
    if (issued.expiresAt <= now() || issued.clientId !== client.id) {
      return oauthError(res, 400, 'invalid_grant', 'Bad Request')
    }
    if (form.get('redirect_uri') !== issued.redirectUri) {
      return oauthError(res, 400, 'redirect_uri_mismatch', 'Bad Request')
    }
    const verifier = form.get('code_verifier')
    if (!verifier) return oauthError(res, 400, 'invalid_grant', 'Missing code verifier.')
    if (s256(verifier) !== issued.codeChallenge) {
      return oauthError(res, 400, 'invalid_grant', 'Invalid code verifier.')
    }
    const accessToken = randomToken('ya29.', 48)
    issued.accessToken = accessToken
    tokens.set(accessToken, {
      clientId: client.id,
      account: issued.account,
      scope: issued.scope,
      expiresAt: now() + ACCESS_TOKEN_TTL_S * 1000,
      revoked: false,
    })
    sendJson(res, 200, {
      access_token: accessToken,
      expires_in: ACCESS_TOKEN_TTL_S,
      scope: issued.scope,
      token_type: 'Bearer',
    })
  }

  // --- Drive API v3 ----------------------------------------------------------

  /** The caller's token, or undefined after answering 401/403. */
  function driveCaller(req: FakeRequest, res: ServerResponse): AccessToken | undefined {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')
    const caller = match?.[1] ? tokens.get(match[1]) : undefined
    if (!caller || caller.revoked || caller.expiresAt <= now()) {
      driveError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', {
        reason: 'authError',
        headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
      })
      return undefined
    }
    if (!caller.scope.split(' ').includes(DRIVE_APPDATA_SCOPE)) {
      driveError(res, 403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', {
        reason: 'insufficientPermissions',
      })
      return undefined
    }
    return caller
  }

  const visible = (caller: AccessToken) =>
    files.filter((f) => f.account === caller.account && f.clientId === caller.clientId)

  function listFiles(req: FakeRequest, res: ServerResponse, caller: AccessToken) {
    const q = req.url.searchParams
    const spaces = (q.get('spaces') ?? 'drive').split(',')
    if (spaces.some((s) => s !== 'appDataFolder')) {
      return driveError(
        res,
        403,
        'PERMISSION_DENIED',
        'The granted scopes do not give access to all of the requested spaces.',
        { reason: 'insufficientScopes' },
      )
    }
    const filter = parseQuery(q.get('q') ?? '')
    if (!filter) {
      return driveError(res, 400, 'INVALID_ARGUMENT', 'Invalid Value', {
        reason: 'invalid',
        location: 'q',
      })
    }
    const found = visible(caller).filter(filter)
    const list = {
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: found.map(resource),
    }
    sendJson(res, 200, project(list, q.get('fields') ?? 'kind,incompleteSearch,files'))
  }

  function upload(req: FakeRequest, res: ServerResponse, caller: AccessToken) {
    if (req.url.searchParams.get('uploadType') !== 'multipart') {
      return driveError(res, 400, 'INVALID_ARGUMENT', 'This fake supports uploadType=multipart.', {
        reason: 'invalid',
        location: 'uploadType',
      })
    }
    const parts = parseMultipart(req.headers['content-type'] ?? '', req.body)
    const metadata = parts && parseJsonObject(parts.metadata)
    if (!parts || !metadata) {
      return driveError(res, 400, 'INVALID_ARGUMENT', 'Malformed multipart body.', {
        reason: 'badContent',
      })
    }
    const parents = metadata.parents
    if (!Array.isArray(parents) || parents.length !== 1 || parents[0] !== 'appDataFolder') {
      // With only drive.appdata granted, the app-data folder is the only place to write.
      return driveError(res, 403, 'PERMISSION_DENIED', 'Insufficient Permission', {
        reason: 'insufficientPermissions',
      })
    }
    const file: DriveFile = {
      id: randomToken('1', 24),
      name: typeof metadata.name === 'string' ? metadata.name : 'Untitled',
      mimeType:
        typeof metadata.mimeType === 'string'
          ? metadata.mimeType
          : (parts.mediaType ?? 'application/octet-stream'),
      content: parts.media,
      account: caller.account,
      clientId: caller.clientId,
      createdTime: new Date(now()).toISOString(),
    }
    files.push(file)
    sendJson(res, 200, project(resource(file), req.url.searchParams.get('fields') ?? DEFAULT_FILE))
  }

  function fileById(req: FakeRequest, res: ServerResponse, caller: AccessToken, id: string) {
    const file = visible(caller).find((f) => f.id === id)
    if (!file) {
      return driveError(res, 404, 'NOT_FOUND', `File not found: ${id}.`, {
        reason: 'notFound',
        location: 'fileId',
      })
    }
    if (req.method === 'DELETE') {
      files.splice(files.indexOf(file), 1)
      res.writeHead(204)
      res.end()
      return
    }
    if (req.url.searchParams.get('alt') === 'media') {
      res.writeHead(200, { 'content-type': file.mimeType })
      res.end(file.content)
      return
    }
    sendJson(res, 200, project(resource(file), req.url.searchParams.get('fields') ?? DEFAULT_FILE))
  }

  function drive(req: FakeRequest, res: ServerResponse) {
    if (handleCors(req, res, cors, 'authorization, content-type')) return
    const path = req.url.pathname
    const caller = driveCaller(req, res)
    if (!caller) return
    if (path === FILES_PATH && req.method === 'GET') return listFiles(req, res, caller)
    if (path === UPLOAD_PATH && req.method === 'POST') return upload(req, res, caller)
    const id = path.startsWith(`${FILES_PATH}/`) ? path.slice(FILES_PATH.length + 1) : ''
    if (id && !id.includes('/') && (req.method === 'GET' || req.method === 'DELETE')) {
      return fileById(req, res, caller, decodeURIComponent(id))
    }
    driveError(res, 404, 'NOT_FOUND', 'Not Found', { reason: 'notFound' })
  }

  const server = await listen((req, res) => {
    const path = req.url.pathname
    if (path === AUTHORIZE_PATH && req.method === 'GET') return authorize(req, res)
    if (path === APPROVE_PATH && req.method === 'GET') return approve(req, res)
    if (path === TOKEN_PATH) {
      if (handleCors(req, res, cors, 'authorization, content-type')) return
      if (req.method === 'POST') return token(req, res)
    }
    if (path.startsWith('/drive/') || path.startsWith('/upload/')) return drive(req, res)
    sendJson(res, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } })
  }, options.port)

  return {
    url: server.url,
    authorizationUrl: `${server.url}${AUTHORIZE_PATH}`,
    tokenUrl: `${server.url}${TOKEN_PATH}`,
    apiBaseUrl: server.url,
    files: (account) =>
      files
        .filter((f) => f.account === account)
        .map(({ id, name, content }) => ({ id, name, content })),
    issueCode,
    get tokenRequests() {
      return tokenRequests
    },
    close: server.close,
  }
}

// --- helpers -----------------------------------------------------------------

const DEFAULT_FILE = 'kind,id,name,mimeType'

/** base64url(SHA-256(verifier)): RFC 7636 §4.2 S256. */
function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** RFC 6749 §2.3.1: HTTP Basic or form fields, never both. */
function clientCredentials(
  authorization: string | undefined,
  form: URLSearchParams,
): { id: string; secret: string } | 'ambiguous' | undefined {
  const basic = /^Basic (\S+)$/i.exec(authorization ?? '')
  const inForm = form.has('client_secret')
  if (basic?.[1]) {
    if (inForm) return 'ambiguous'
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) return undefined
    // §2.3.1: the id and secret are form-encoded before Basic encoding.
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) }
  }
  const id = form.get('client_id')
  const secret = form.get('client_secret')
  return id && secret ? { id, secret } : undefined
}

function oauthError(res: ServerResponse, status: number, error: string, description: string) {
  sendJson(res, status, { error, error_description: description })
}

function driveError(
  res: ServerResponse,
  code: number,
  status: string,
  message: string,
  detail: { reason: string; location?: string; headers?: Record<string, string> },
): void {
  const error = {
    message,
    domain: 'global',
    reason: detail.reason,
    ...(detail.location ? { location: detail.location, locationType: 'parameter' } : {}),
  }
  sendJson(res, code, { error: { code, message, errors: [error], status } }, detail.headers)
}

function errorPage(res: ServerResponse, status: number, error: string, description: string) {
  sendHtml(
    res,
    status,
    page(
      'Error',
      `<h1>Error ${status}: ${escapeHtml(error)}</h1><p data-error="${escapeHtml(error)}">${escapeHtml(description)}</p>`,
    ),
  )
}

function consentPage(requestId: string, clientId: string, scope: string, accounts: string[]) {
  const buttons = accounts
    .map(
      (a) =>
        `<button type="submit" name="account" value="${escapeHtml(a)}" data-account="${escapeHtml(a)}">${escapeHtml(a)}</button>`,
    )
    .join('')
  return page(
    'Sign in - Google Accounts',
    `<h1>Choose an account</h1><p>to continue to <b>${escapeHtml(clientId)}</b></p>` +
      `<p>Requested access: <code>${escapeHtml(scope)}</code></p>` +
      `<form method="get" action="${APPROVE_PATH}">` +
      `<input type="hidden" name="request" value="${escapeHtml(requestId)}">${buttons}` +
      '<button type="submit" name="action" value="cancel" data-action="cancel">Cancel</button>' +
      '</form>',
  )
}

/** The Drive `File` resource, as files.get returns it with `fields=*` (the parts modelled). */
function resource(file: DriveFile): Record<string, unknown> {
  return {
    kind: 'drive#file',
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    parents: ['appDataFolder'],
    spaces: ['appDataFolder'],
    size: String(Buffer.byteLength(file.content)),
    createdTime: file.createdTime,
    modifiedTime: file.createdTime,
    trashed: false,
  }
}

/**
 * Google's partial response (`fields=kind,files(id,name)`): keeps the named
 * fields; `a(b,c)` keeps b and c of each element of a.
 */
function project(value: Record<string, unknown>, fields: string): Record<string, unknown> {
  if (fields.trim() === '*') return value
  const out: Record<string, unknown> = {}
  for (const field of splitTopLevel(fields)) {
    const nested = /^(\w+)\((.*)\)$/.exec(field)
    const key = nested?.[1] ?? field
    const inner = nested?.[2]
    const v = value[key]
    if (v === undefined) continue
    if (inner === undefined) out[key] = v
    else if (Array.isArray(v)) out[key] = v.map((item) => project(item, inner))
    else if (v && typeof v === 'object') out[key] = project(v as Record<string, unknown>, inner)
  }
  return out
}

function splitTopLevel(fields: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of fields) {
    if (ch === ',' && depth === 0) {
      out.push(current.trim())
      current = ''
      continue
    }
    if (ch === '(') depth++
    if (ch === ')') depth--
    current += ch
  }
  if (current.trim()) out.push(current.trim())
  return out
}

/**
 * The Drive search syntax this fake understands: clauses joined by `and`,
 * each `name = '…'` (with `\'` and `\\` escapes), `trashed = false|true` or
 * `'appDataFolder' in parents`. Anything else is an invalid query (400).
 */
function parseQuery(q: string): ((file: DriveFile) => boolean) | undefined {
  const clause =
    /^\s*(?:name\s*=\s*'((?:[^'\\]|\\.)*)'|trashed\s*=\s*(true|false)|'appDataFolder'\s+in\s+parents)\s*(?:and\s+|$)/i
  const tests: Array<(file: DriveFile) => boolean> = []
  let rest = q
  while (rest.trim()) {
    const match = clause.exec(rest)
    if (!match) return undefined
    const [all, name, trashed] = match
    if (name !== undefined) {
      const wanted = name.replace(/\\(.)/g, '$1')
      tests.push((f) => f.name === wanted)
    } else if (trashed !== undefined) {
      // Files in appDataFolder cannot be trashed.
      const want = trashed.toLowerCase() === 'true'
      tests.push(() => !want)
    }
    rest = rest.slice(all.length)
  }
  return (file) => tests.every((t) => t(file))
}

/** A multipart/related upload: first part JSON metadata, second the media. */
function parseMultipart(
  contentType: string,
  body: Buffer,
): { metadata: string; media: string; mediaType?: string } | undefined {
  const boundary = /^multipart\/related;.*boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (!boundary) return undefined
  const text = body.toString('utf8')
  const sections = text.split(`--${boundary}`)
  // [preamble, part1, part2, '--' epilogue]
  if (sections.length < 4 || !sections[3]?.startsWith('--')) return undefined
  const parts = sections.slice(1, 3).map((section) => {
    const split = section.indexOf('\r\n\r\n')
    if (split < 0) return undefined
    const headers = section.slice(0, split)
    const content = section.slice(split + 4).replace(/\r\n$/, '')
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim()
    return { type, content }
  })
  const [metadata, media] = parts
  if (!metadata || !media || !metadata.type?.startsWith('application/json')) return undefined
  return {
    metadata: metadata.content,
    media: media.content,
    ...(media.type ? { mediaType: media.type } : {}),
  }
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
