import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLUSTER_PG_URL, missingClusterServices, pgAdmin } from './test/cluster.ts'
import {
  type FaultAnswer,
  type FaultNode,
  faultNodeOptions,
  startFaultNode,
  waitFor,
} from './test/faults.ts'
import { brokenInvariants, tableCounts } from './test/invariants.ts'
import { startTcpProxy, type TcpProxy } from './test/tcp-proxy.ts'

// Tracker issue 20, item 4: PostgreSQL goes away under load (every connection
// of the node dies and new ones are refused, as in a restart — through a proxy,
// so the machine's PostgreSQL keeps serving the other tests). The node answers
// 503 SERVICE_UNAVAILABLE with Retry-After instead of 500, says so on /ready,
// does not crash, serves again once PostgreSQL is back without a restart, and
// leaves no partial rows.
const missing = await missingClusterServices('faults.postgres-outage.test.ts')
const WORKERS = 6

let schema: string
let proxy: TcpProxy
let node: FaultNode

describe.skipIf(missing.length > 0)('PostgreSQL down during load', () => {
  beforeAll(async () => {
    schema = `faults_pg_${randomBytes(6).toString('hex')}`
    await pgAdmin((client) => client.query(`CREATE SCHEMA ${schema}`))
    proxy = await startTcpProxy(Number(new URL(CLUSTER_PG_URL).port || 5432))
    const databaseUrl = new URL(CLUSTER_PG_URL)
    databaseUrl.port = String(proxy.port)
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`)
    const many = { limit: 1_000_000, windowMs: 3_600_000 }
    node = await startFaultNode(
      faultNodeOptions({
        databaseUrl: databaseUrl.toString(),
        rateLimits: { codeSendsPerIp: many, codeAttemptsPerIp: many },
      }),
    )
  }, 180_000)

  afterAll(async () => {
    await node?.stop()
    await proxy?.close()
    if (schema) await pgAdmin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
  }, 20_000)

  it('answers 503 with Retry-After while it is down, and recovers on its own with no partial rows', async () => {
    type Phase = 'before' | 'cut' | 'after'
    let phase = 'before' as Phase
    let running = true
    const answers: Array<FaultAnswer & { phase: Phase; path: string }> = []
    const flows = { before: 0, cut: 0, after: 0 }
    const call = async (path: string, body: object) => {
      const at = phase
      const answer = await node.call(path, { body })
      answers.push({ ...answer, phase: at, path })
      return answer.status === 200 ? answer : undefined
    }
    // One user's steps, each may fail while PostgreSQL is away; the worker then starts over.
    const flow = async (email: string) => {
      const started = phase
      if (!(await call(routes.emailInit, { email }))) return
      const mailbox = await node.call(`${routes.devMailbox}?to=${encodeURIComponent(email)}`, {
        app: false,
      })
      answers.push({ ...mailbox, phase: started, path: routes.devMailbox })
      const code = mailbox.body?.messages?.[0]?.code
      if (!code) return
      const login = await call(routes.emailAuthenticate, { email, code })
      if (!login) return
      let refreshToken = login.body.refresh_token
      for (let i = 0; i < 2; i++) {
        const refreshed = await call(routes.sessionRefresh, { refresh_token: refreshToken })
        if (!refreshed) return
        refreshToken = refreshed.body.refresh_token
      }
      // Counted for the phase it ran in from start to end.
      if (phase === started) flows[started]++
    }
    // A node that died (a connection's 'error' event unheard) fails the workers: record it, and stop.
    const died: unknown[] = []
    const workers = Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = 0; running; i++) await flow(`w${w}-${i}@example.com`)
    }).map((worker) => worker.catch((error) => died.push(error)))
    const alive = <T>(value: T) => {
      if (died.length > 0 || node.child.exitCode !== null) throw new Error('the node died')
      return value
    }

    await waitFor('flows before the cut', () => alive(flows.before >= 2 || undefined))
    phase = 'cut'
    await proxy.cut()
    const refusal = await waitFor('a 503 while PostgreSQL is down', () =>
      alive(answers.find((a) => a.phase === 'cut' && a.status === 503)),
    )
    expect(refusal.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Service temporarily unavailable. Please try again.',
      retry_after: 2,
    })
    expect(refusal.headers.get('retry-after')).toBe('2')
    expect(await node.call(routes.ready, { app: false })).toMatchObject({
      status: 503,
      body: { code: 'NOT_READY', message: 'Not ready: database not answering' },
    })
    // Several refused requests later: still refusing cleanly, still alive.
    const refusedBefore = answers.filter((a) => a.status === 503).length
    await waitFor('more 503s', () =>
      alive(answers.filter((a) => a.status === 503).length >= refusedBefore + WORKERS || undefined),
    )

    await proxy.restore()
    phase = 'after'
    await waitFor('flows after PostgreSQL is back', () => alive(flows.after >= 2 || undefined))
    expect((await node.call(routes.ready, { app: false })).status).toBe(200)
    running = false
    await Promise.all(workers)

    expect(died).toEqual([])
    expect(node.child.exitCode).toBeNull()
    const failures = answers.filter((a) => a.status >= 500 && a.status !== 503)
    expect(failures.map((a) => `${a.path} ${a.status} ${JSON.stringify(a.body)}`)).toEqual([])
    // A request sent after PostgreSQL came back is served (one sent before may meet the cut).
    expect(answers.filter((a) => a.phase === 'after' && a.status !== 200)).toEqual([])
    expect(node.logs.filter((line) => line.level === 'error')).toEqual([])
    const broken = await pgAdmin(async (client) => {
      await client.query(`SET search_path TO ${schema}`)
      const run = async (sql: string) => (await client.query(sql)).rows
      return { broken: await brokenInvariants('postgres', run), counts: await tableCounts(run) }
    })
    expect(broken.broken).toEqual({})
    expect(broken.counts.sessions).toBeGreaterThanOrEqual(4)
  })
})
