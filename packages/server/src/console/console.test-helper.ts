import { runCli } from '../cli.ts'
import type { TestInstance } from '../test/instance.ts'
import { CONSOLE_CSRF_HEADER } from './guard.ts'
import { CONSOLE_COOKIE } from './sessions.ts'

export interface ConsoleResponse {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies loosely
  body: any
  text: string
  headers: Headers
}

export interface ConsoleRequestOptions {
  method?: 'GET' | 'POST'
  body?: unknown
  /** The session cookie value (none: no cookie). */
  session?: string
  /** Default: the server's own origin on a POST, none on a GET; null: none. */
  origin?: string | null
  /** Send the CSRF header on a POST (default true). */
  csrf?: boolean
  headers?: Record<string, string>
}

/** Calls the console API as the console page does: own origin, CSRF header, session cookie. */
export async function consoleRequest(
  t: TestInstance,
  path: string,
  options: ConsoleRequestOptions = {},
): Promise<ConsoleResponse> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST')
  const headers: Record<string, string> = { ...options.headers }
  const origin = options.origin === undefined && method === 'POST' ? t.ownOrigin : options.origin
  if (origin) headers.origin = origin
  if (method === 'POST' && options.csrf !== false) headers[CONSOLE_CSRF_HEADER] = '1'
  if (options.session) headers.cookie = `${CONSOLE_COOKIE}=${options.session}`
  if (method === 'POST') headers['content-type'] = 'application/json'
  const res = await t.server.app.request(`/console/api${path}`, {
    method,
    headers,
    body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
  })
  const text = await res.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : null
  } catch {}
  return { status: res.status, body, text, headers: res.headers }
}

/** `latchkey admin …` against the instance's database; stdout and the exit code. */
export async function adminCli(t: TestInstance, ...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** A new admin made with the CLI: its id and token. */
export async function createAdminWithCli(t: TestInstance, name = 'ops') {
  const created = await adminCli(t, 'admin', 'create', name, '--json')
  if (created.code !== 0) throw new Error(created.err)
  return JSON.parse(created.out) as { id: string; token: string }
}

/** The session cookie value a `Set-Cookie` header sets, or undefined. */
export function sessionFrom(headers: Headers): string | undefined {
  const line = headers.getSetCookie().find((c) => c.startsWith(`${CONSOLE_COOKIE}=`))
  return line?.slice(CONSOLE_COOKIE.length + 1).split(';')[0] || undefined
}

/** Signs in with a new admin; the session cookie value. */
export async function signIn(t: TestInstance, name = 'ops'): Promise<string> {
  const { token } = await createAdminWithCli(t, name)
  const res = await consoleRequest(t, '/login', { body: { token } })
  const session = sessionFrom(res.headers)
  if (res.status !== 200 || !session) throw new Error(`sign-in failed: ${res.text}`)
  return session
}
