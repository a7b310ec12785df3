import { randomBytes } from 'node:crypto'
import type { AuthResponse } from '@latchkey/protocol'
import { Header, routes } from '@latchkey/protocol'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { listDevMailbox } from '../adapters/email/dev-mailbox.ts'
import { type AppRecord, type AppSettings, createApp } from '../apps/service.ts'
import { type LatchkeyServerOptions, silentLogger } from '../config.ts'
import { connectPostgres, connectSqlite } from '../db/connect.ts'
import type { Database } from '../db/types.ts'
import { createLatchkeyServer, type LatchkeyServer } from '../server.ts'
import { createTestEnclaveKey, type TestEnclaveKey, type TestProofOptions } from './enclave-key.ts'
import { TEST_ORIGIN } from './origin.ts'
import { copyTemplateDatabase, TEMPLATE_SCHEMA } from './postgres-template.ts'

export { TEST_ORIGIN }

/** A clock tests move by hand (no sleeps). */
export interface TestClock {
  now: () => number
  advance(ms: number): void
  set(ms: number): void
}

export function createClock(start = Date.UTC(2030, 0, 1)): TestClock {
  let t = start
  return {
    now: () => t,
    advance: (ms) => {
      t += ms
    },
    set: (ms) => {
      t = ms
    },
  }
}

export interface RequestOptions {
  method?: string
  body?: unknown
  /** Raw body text (for malformed-JSON tests). */
  rawBody?: string
  token?: string
  /** App id header; defaults to the instance's app; `null` to omit. */
  appId?: string | null
  origin?: string | null
  headers?: Record<string, string>
}

/** A key route called as the enclave page calls it (TestInstance.enclaveRequest). */
export interface EnclaveRequestOptions extends Omit<RequestOptions, 'method' | 'origin'> {
  method?: 'GET' | 'POST'
  /** The signing key (default: the instance's `enclaveKey`). */
  enclaveKey?: TestEnclaveKey
  /** Default: the instance's own origin; `null` to omit. */
  origin?: string | null
  /** Overrides of the proof's claims and header; `null` sends no proof. */
  proof?: Partial<TestProofOptions> | null
}

export interface TestResponse {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies loosely
  body: any
  headers: Headers
}

export interface TestInstance {
  server: LatchkeyServer
  db: Kysely<Database>
  clock: TestClock
  app: AppRecord
  appSecret: string
  dialect: 'sqlite' | 'postgres'
  /** Calls the Hono app in process; JSON in, `{ status, body, headers }` out. */
  request(path: string, options?: RequestOptions): Promise<TestResponse>
  /** Latest code the dev mailbox got for `email`. */
  lastCode(email: string): Promise<string>
  /** This server's own origin (the enclave page's): `config.ownOrigins[0]`, http://latchkey.test. */
  ownOrigin: string
  /** A device key of "the" enclave: `login(email, { enclaveKey: t.enclaveKey })` binds to it. */
  enclaveKey: TestEnclaveKey
  /**
   * init + authenticate: a logged-in user. With `enclaveKey`, the login sends
   * its thumbprint (`latchkey-enclave-key`) and the session is bound to it.
   */
  login(
    email: string,
    options?: { appId?: string; enclaveKey?: TestEnclaveKey },
  ): Promise<AuthResponse>
  /**
   * Calls a key route as the enclave page does: from the own origin, with a
   * `dpop` proof signed by `enclaveKey` (default the instance's) for this
   * method, path and token, `iat` from the test clock.
   *
   * @example
   * const { token } = await t.login('a@b.co', { enclaveKey: t.enclaveKey })
   * await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body: hdBody() })
   */
  enclaveRequest(path: string, options: EnclaveRequestOptions): Promise<TestResponse>
  /** Creates another app in the same database. */
  createApp(settings?: AppSettings, origins?: string[]): Promise<AppRecord>
  countRows(table: keyof Database): Promise<number>
  close(): Promise<void>
}

async function openDatabase(): Promise<{
  db: Kysely<Database>
  dialect: 'sqlite' | 'postgres'
  cleanup: () => Promise<void>
}> {
  const url = process.env.DATABASE_URL
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    // A database of its own, copied from the migrated template (postgres-template.ts).
    const copy = await copyTemplateDatabase(url)
    const db = connectPostgres(copy.url, { schema: TEMPLATE_SCHEMA, max: 5 })
    return {
      db,
      dialect: 'postgres',
      cleanup: async () => {
        await db.destroy()
        await copy.drop()
      },
    }
  }
  const db = connectSqlite(':memory:')
  return { db, dialect: 'sqlite', cleanup: () => db.destroy() }
}

/**
 * A fresh server on a fresh database for one test file: in-memory SQLite, or
 * a new Postgres schema (dropped on close) when DATABASE_URL is set. Uses a
 * hand-driven clock, the dev mailbox and a silent logger.
 *
 * @example
 * const t = await getTestInstance()
 * afterAll(() => t.close())
 * const { body } = await t.request(routes.emailInit, { method: 'POST', body: { email: 'a@b.co' } })
 */
export async function getTestInstance(
  options: Partial<LatchkeyServerOptions> & { appSettings?: AppSettings } = {},
): Promise<TestInstance> {
  const { db, dialect, cleanup } = await openDatabase()
  const clock = createClock()
  const { appSettings, ...serverOptions } = options
  let server: LatchkeyServer
  try {
    server = await createLatchkeyServer({
      db,
      masterKey: randomBytes(32),
      publicUrl: 'http://latchkey.test',
      logger: silentLogger,
      now: clock.now,
      ...serverOptions,
    })
  } catch (error) {
    await cleanup()
    throw error
  }
  const created = await createApp(db, {
    name: 'Test App',
    origins: [TEST_ORIGIN],
    settings: appSettings ?? {},
  })

  const ownOrigin = server.services.config.ownOrigins[0] ?? 'http://latchkey.test'
  const instance: TestInstance = {
    server,
    db,
    clock,
    app: created.app,
    appSecret: created.secret,
    dialect,
    ownOrigin,
    enclaveKey: await createTestEnclaveKey(),
    async request(path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) }
      const appId = opts.appId === undefined ? created.app.id : opts.appId
      if (appId !== null) headers[Header.appId] = appId
      if (opts.origin) headers.origin = opts.origin
      if (opts.token) headers.authorization = `Bearer ${opts.token}`
      let body: string | undefined
      if (opts.rawBody !== undefined) body = opts.rawBody
      else if (opts.body !== undefined) body = JSON.stringify(opts.body)
      if (body !== undefined) headers['content-type'] ??= 'application/json'
      const res = await server.app.request(path, {
        method: opts.method ?? (body !== undefined ? 'POST' : 'GET'),
        headers,
        body,
      })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers }
    },
    async lastCode(email) {
      const [message] = await listDevMailbox(db, email, 1)
      if (!message?.code) throw new Error(`No code was sent to ${email}`)
      return message.code
    },
    async login(email, opts = {}) {
      const appId = opts.appId ?? created.app.id
      const init = await instance.request(routes.emailInit, { body: { email }, appId })
      if (init.status !== 200) throw new Error(`init failed: ${JSON.stringify(init.body)}`)
      const code = await instance.lastCode(email)
      const auth = await instance.request(routes.emailAuthenticate, {
        body: { email, code },
        appId,
        headers: opts.enclaveKey ? { [Header.enclaveKey]: opts.enclaveKey.jkt } : {},
      })
      if (auth.status !== 200) throw new Error(`authenticate failed: ${JSON.stringify(auth.body)}`)
      // Past the resend cooldown, so the next init for this address works.
      clock.advance(31_000)
      return auth.body as AuthResponse
    },
    async enclaveRequest(path, opts) {
      const { enclaveKey = instance.enclaveKey, proof, origin, method = 'POST', ...rest } = opts
      const headers: Record<string, string> = { ...(rest.headers ?? {}) }
      if (proof !== null)
        headers[Header.enclaveProof] = await enclaveKey.proof({
          method,
          // The pathname, as the server reads it (a full URL's host is the caller's to choose).
          path: new URL(path, ownOrigin).pathname,
          token: opts.token ?? '',
          origin: ownOrigin,
          now: clock.now(),
          ...proof,
        })
      return instance.request(path, {
        ...rest,
        method,
        headers,
        origin: origin === undefined ? ownOrigin : origin,
      })
    },
    async createApp(settings = {}, origins = [TEST_ORIGIN]) {
      const { app } = await createApp(db, { name: 'Other App', origins, settings })
      return app
    },
    async countRows(table) {
      const row = await db
        .selectFrom(table)
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },
    async close() {
      await server.close()
      await cleanup()
    },
  }
  return instance
}
