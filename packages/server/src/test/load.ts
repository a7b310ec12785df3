/**
 * @module
 * The load of tracker issue 20, item 3, against a deployment of server
 * processes (test/cluster.ts): email-login flows with every step on the other
 * node, then chains of refresh rotations alternating nodes, then one more
 * rotation of every session and an audit of the session families in SQL.
 * load.two-nodes.test.ts asserts on it; `npm run bench:load` (bench/load.mjs)
 * runs it with larger counts and prints the same summary.
 */
import { createHash, randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import pg from 'pg'
import { CLUSTER_PG_URL, type ClusterNode, type Deployment, startDeployment } from './cluster.ts'
import { createLoadClient, type LoadClient } from './load-http.ts'
import { type ConnectionUse, type PhaseReport, PhaseTimer, runLimited } from './load-stats.ts'

export interface LoadOptions {
  /** Email-login flows, all started at once under the concurrency limit. */
  flows: number
  /** Refresh rotations spread over the flows' sessions (chains alternating nodes). */
  refreshes: number
  /** Requests in flight at most (one per running flow or chain). */
  concurrency: number
}

const positiveInt = (value: string | undefined, fallback: number) => {
  const n = Number(value)
  return value && Number.isInteger(n) && n > 0 ? n : fallback
}

/** The figures, or LOAD_FLOWS / LOAD_REFRESHES / LOAD_CONCURRENCY. */
export function loadOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LoadOptions {
  return {
    flows: positiveInt(env.LOAD_FLOWS, 1_000),
    refreshes: positiveInt(env.LOAD_REFRESHES, 10_000),
    concurrency: positiveInt(env.LOAD_CONCURRENCY, 64),
  }
}

const unlimited = { limit: 1_000_000_000, windowMs: 3_600_000 }

/**
 * Starts two nodes whose per-IP code limits are lifted: every request of the
 * load comes from 127.0.0.1, where a real deployment sees one IP per user.
 * The per-address limits stay (each flow uses its own address once). Stop
 * with `stopLoad(run)`.
 */
export async function startLoad(options: LoadOptions): Promise<LoadRun> {
  const applicationName = `latchkey-load-${randomBytes(6).toString('hex')}`
  const deployment = await startDeployment({
    applicationName,
    node: { rateLimits: { codeSendsPerIp: unlimited, codeAttemptsPerIp: unlimited } },
  })
  const client = createLoadClient(deployment.appId, options.concurrency)
  return { deployment, client, options, applicationName, sessions: [] }
}

/** Cuts the requests in flight, if any, then stops the nodes. */
export async function stopLoad(run: LoadRun | undefined): Promise<void> {
  run?.client.close()
  await run?.running
  await run?.deployment.stop()
}

export interface LoadSession {
  email: string
  userId: string
  token: string
  refreshToken: string
  /** Rotations of this session's refresh token so far. */
  rotations: number
  /** The node of the last rotation (the next one goes to the other node). */
  rotatedOn?: ClusterNode
}

export interface LoadRun {
  deployment: Deployment
  client: LoadClient
  options: LoadOptions
  /** The `application_name` of the nodes' PostgreSQL connections (for sampling their use). */
  applicationName: string
  sessions: LoadSession[]
  /** The phase running, if any. */
  running?: Promise<unknown>
  /** A phase was aborted (its test timed out): its requests were cut, the next phases refuse to run. */
  cutShort?: boolean
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url')

/** Samples the deployment's busy PostgreSQL connections until `stop()`. */
function sampleConnections(applicationName: string) {
  const client = new pg.Client({ connectionString: CLUSTER_PG_URL })
  const samples: { busy: number; open: number }[] = []
  let sampling = true
  const loop = (async () => {
    await client.connect()
    while (sampling) {
      const { rows } = await client.query(
        `SELECT count(*) FILTER (WHERE state = 'active')::int AS busy, count(*)::int AS open
           FROM pg_stat_activity WHERE application_name = $1`,
        [applicationName],
      )
      samples.push(rows[0])
      // A sample every 50 ms is enough to see whether both pools stay full.
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await client.end()
  })()
  return async (): Promise<ConnectionUse> => {
    sampling = false
    await loop
    const busy = samples.map((s) => s.busy)
    return {
      open: Math.max(0, ...samples.map((s) => s.open)),
      peakBusy: Math.max(0, ...busy),
      meanBusy: busy.reduce((a, b) => a + b, 0) / Math.max(1, busy.length),
    }
  }
}

/**
 * Runs `count` tasks, `concurrency` at most at once, timing them and sampling
 * PostgreSQL. When `signal` aborts, the requests in flight are cut (a server
 * that stopped answering — a pool deadlock — would hold them forever) and the
 * run is over: later phases refuse to start.
 */
async function measured(
  run: LoadRun,
  name: string,
  count: number,
  task: (timer: PhaseTimer, index: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<PhaseReport> {
  if (run.cutShort) throw new Error(`${name}: not run, an earlier phase was cut short`)
  const cut = () => {
    run.cutShort = true
    run.client.close()
  }
  signal?.addEventListener('abort', cut)
  const stopSampling = sampleConnections(run.applicationName)
  const timer = new PhaseTimer(name, run.options.concurrency)
  const running = runLimited(count, run.options.concurrency, (i) => task(timer, i), signal)
  run.running = running
  const outcome = await running
  signal?.removeEventListener('abort', cut)
  return timer.report(outcome, await stopSampling())
}

const other = (run: LoadRun, node: ClusterNode) =>
  run.deployment.nodes.find((n) => n !== node) as ClusterNode
/** Where a session's next rotation goes: not where its last one went. */
const otherNode = (run: LoadRun, session: LoadSession) =>
  session.rotatedOn ? other(run, session.rotatedOn) : (run.deployment.nodes[0] as ClusterNode)

function expectStatus(step: string, answer: { status: number; body: unknown }, status = 200) {
  if (answer.status !== status)
    throw new Error(`${step}: ${answer.status} ${JSON.stringify(answer.body)}`)
}

/** Rotates a session's refresh token on `node`; the answer must be a new token. */
async function rotate(run: LoadRun, timer: PhaseTimer, node: ClusterNode, session: LoadSession) {
  const sent = session.refreshToken
  const answer = await timer.request(() =>
    run.client.call(node, routes.sessionRefresh, { body: { refresh_token: sent } }),
  )
  expectStatus(`refresh on ${node.name}`, answer)
  if (answer.body.refresh_token === sent)
    throw new Error(`refresh on ${node.name}: the refresh token did not rotate`)
  session.refreshToken = answer.body.refresh_token
  session.token = answer.body.token
  session.rotations++
  session.rotatedOn = node
}

/** `GET usersMe` with the session's access token on `node` must answer its user. */
async function expectWorking(
  run: LoadRun,
  timer: PhaseTimer,
  node: ClusterNode,
  session: LoadSession,
) {
  const me = await timer.request(() =>
    run.client.call(node, routes.usersMe, { token: session.token }),
  )
  expectStatus(`usersMe on ${node.name}`, me)
  if (me.body.user.id !== session.userId) throw new Error(`usersMe on ${node.name}: another user`)
}

/**
 * Phase 1: `flows` email logins. Flow i sends the code on one node, reads the
 * (database-backed) dev mailbox and verifies on the other, refreshes on the
 * first and reads `usersMe` on the second with the new access token.
 */
export function loginFlows(run: LoadRun, signal?: AbortSignal): Promise<PhaseReport> {
  return measured(
    run,
    'email-login flows',
    run.options.flows,
    (timer, i) => timer.unit(() => loginFlow(run, timer, i)),
    signal,
  )
}

async function loginFlow(run: LoadRun, timer: PhaseTimer, i: number) {
  const { client } = run
  const first = run.deployment.nodes[i % 2] as ClusterNode
  const second = other(run, first)
  const email = `load-${i}@example.com`
  const init = await timer.request(() => client.call(first, routes.emailInit, { body: { email } }))
  expectStatus(`email init on ${first.name}`, init)
  const code = await timer.request(() => client.mailboxCode(second, email))
  const auth = await timer.request(() =>
    client.call(second, routes.emailAuthenticate, { body: { email, code } }),
  )
  expectStatus(`email authenticate on ${second.name}`, auth)
  const session: LoadSession = {
    email,
    userId: auth.body.user.id,
    token: auth.body.token,
    refreshToken: auth.body.refresh_token,
    rotations: 0,
  }
  await rotate(run, timer, first, session)
  await expectWorking(run, timer, second, session)
  run.sessions[i] = session
}

/**
 * Phase 2: `refreshes` rotations, as one chain per session (session i rotates
 * ⌊refreshes / sessions⌋ times, the first `refreshes mod sessions` once more),
 * each rotation on the other node than the last. A chain is sequential, as a
 * client's refreshes are: a session never has two rotations in flight.
 */
export function refreshChains(run: LoadRun, signal?: AbortSignal): Promise<PhaseReport> {
  const sessions = run.sessions.filter(Boolean)
  const { refreshes } = run.options
  const each = Math.floor(refreshes / sessions.length)
  const extra = refreshes % sessions.length
  return measured(
    run,
    'refreshes',
    sessions.length,
    async (timer, i) => {
      const session = sessions[i] as LoadSession
      for (let n = each + (i < extra ? 1 : 0); n > 0 && !signal?.aborted; n--)
        await timer.unit(() => rotate(run, timer, otherNode(run, session), session))
    },
    signal,
  )
}

/**
 * Phase 3: every session's latest refresh token rotates once more, and the
 * new access token works: no session was lost on the way.
 */
export function lastRotation(run: LoadRun, signal?: AbortSignal): Promise<PhaseReport> {
  const sessions = run.sessions.filter(Boolean)
  return measured(
    run,
    'last rotation + usersMe',
    sessions.length,
    (timer, i) =>
      timer.unit(async () => {
        const session = sessions[i] as LoadSession
        const node = otherNode(run, session)
        await rotate(run, timer, node, session)
        await expectWorking(run, timer, other(run, node), session)
      }),
    signal,
  )
}

export interface FamilyAudit {
  sessions: number
  revoked: number
  /** Sessions whose live tokens are not exactly the one the load holds, or whose row count is off. */
  wrong: string[]
}

/**
 * In SQL: every session family (one per user here) is unrevoked, has exactly
 * one live (unrotated) refresh token, that token is the one the load holds,
 * and it has one row per rotation plus the first.
 */
export async function auditFamilies(run: LoadRun): Promise<FamilyAudit> {
  const { schema } = run.deployment
  const client = new pg.Client({ connectionString: CLUSTER_PG_URL })
  await client.connect()
  try {
    const { rows } = await client.query(
      `SELECT s.user_id, s.revoked_at,
              count(*)::int AS tokens,
              count(*) FILTER (WHERE r.rotated_at IS NULL)::int AS live,
              max(r.token_hash) FILTER (WHERE r.rotated_at IS NULL) AS live_hash
         FROM ${schema}.sessions s JOIN ${schema}.refresh_tokens r ON r.session_id = s.id
        GROUP BY s.id, s.user_id, s.revoked_at`,
    )
    const held = new Map(run.sessions.filter(Boolean).map((s) => [s.userId, s]))
    const wrong: string[] = []
    for (const row of rows) {
      const session = held.get(row.user_id)
      const ok =
        session !== undefined &&
        row.live === 1 &&
        row.live_hash === sha256(session.refreshToken) &&
        row.tokens === session.rotations + 1
      if (!ok) wrong.push(`${session?.email ?? row.user_id}: ${JSON.stringify(row)}`)
    }
    if (rows.length !== held.size) wrong.push(`${rows.length} sessions in SQL, ${held.size} held`)
    return {
      sessions: rows.length,
      revoked: rows.filter((row) => row.revoked_at !== null).length,
      wrong,
    }
  } finally {
    await client.end()
  }
}
