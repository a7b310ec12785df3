// Server throughput: refresh-token and email-authenticate requests per second,
// with the server pinned to one core and the load generator in this process,
// and the server's CPU time per request. SQLite by default; PostgreSQL with
// BENCH_DATABASE_URL=postgres://… (a schema of its own, dropped afterwards).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  affinity,
  call,
  contention,
  machineState,
  measure,
  seconds,
  startPinnedServer,
  stopServer,
  warmUp,
} from './peers/harness.mjs'
import { createSchema, isPostgresUrl } from './peers/pg-schema.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const APP_ID = 'benchappaaaaaaaaaaaaaaaaa'
const headers = { 'content-type': 'application/json', 'latchkey-app-id': APP_ID }

/**
 * Our server in its own process, pinned to core 0 (this process to core 1).
 * On PostgreSQL it gets a new schema, dropped when the process exits.
 */
export async function startServerProcess({
  origins = [],
  databaseUrl = process.env.BENCH_DATABASE_URL,
} = {}) {
  const pg = isPostgresUrl(databaseUrl) ? await createSchema(databaseUrl, 'bench') : undefined
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  try {
    const started = await startPinnedServer({
      // The server from its TypeScript sources: tsx, and the packages' `latchkey-source` export.
      script: join(here, 'server-proc.ts'),
      nodeArgs: [...extra, '--conditions=latchkey-source', '--import', 'tsx'],
      cwd: here,
      env: {
        BENCH_ORIGINS: origins.join(','),
        BENCH_DATABASE_URL: databaseUrl ?? '',
        BENCH_PG_SCHEMA: pg?.schema ?? '',
      },
    })
    const dropped = new Promise((resolve) =>
      started.child.once('exit', () => resolve(pg?.drop().catch(() => {}))),
    )
    const stop = async () => {
      await stopServer(started.child)
      await dropped
    }
    return { ...started, database: pg ? 'postgres' : 'sqlite', stop, dbCpuMicros: pg?.cpuMicros }
  } catch (error) {
    await pg?.drop()
    throw error
  }
}

/** Every code the server has "mailed" so far, by address. */
export const ask = async (child) => (await call(child, 'codes')).codes

async function post(url, path, body) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    // A setup request that never answers is a finding, not something to wait out.
    signal: AbortSignal.timeout(60_000),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** Issues codes for `count` new addresses, 50 at a time. */
export async function issueCodes(url, child, prefix, count) {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${i}@bench.example`)
  for (let i = 0; i < emails.length; i += 50)
    await Promise.all(
      emails.slice(i, i + 50).map((email) => post(url, '/api/v1/passwordless/init', { email })),
    )
  const codes = await ask(child)
  return emails.map((email) => ({ email, code: codes[email] }))
}

/**
 * Refresh: a pool of live refresh tokens; each answer puts its rotated
 * successor back. (autocannon resets per-connection context between
 * requests, so the chain lives here.) Twice as many sessions as connections
 * keeps the pool from running dry between answer and request. The warm-up
 * rotates the same pool. `prefix` keeps addresses apart when called twice on one server.
 */
export async function measureRefresh(
  { child, url, dbCpuMicros },
  { duration, warmup, connections, prefix = 'r' },
) {
  const sessions = []
  for (const { email, code } of await issueCodes(url, child, prefix, connections * 2)) {
    const auth = await post(url, '/api/v1/passwordless/authenticate', { email, code })
    sessions.push(auth.refresh_token)
  }
  const options = (seconds) => ({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/sessions',
        headers,
        setupRequest(req) {
          return { ...req, body: JSON.stringify({ refresh_token: sessions.shift() }) }
        },
        onResponse(status, body) {
          if (status === 200) sessions.push(JSON.parse(body).refresh_token)
        },
      },
    ],
  })
  return measure(child, {
    warmup: warmup > 0 && options(warmup),
    run: options(duration),
    dbCpuMicros,
  })
}

/**
 * Email sign-up: each request logs in (signs up) a fresh address with a code
 * issued beforehand. The warm-up signs up `warmupAmount` addresses; `amount`
 * is a count, or a function of the warm-up's rate (to fill a time window).
 * `prefix` as for `measureRefresh`.
 */
export async function measureEmailSignUp(
  { child, url, dbCpuMicros },
  { amount, warmupAmount, connections, prefix = 'e' },
) {
  const options = (pairs) => ({
    url,
    connections,
    amount: pairs.length,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/passwordless/authenticate',
        headers,
        setupRequest(req) {
          const next = pairs.pop()
          return { ...req, body: JSON.stringify({ ...next, mode: 'login-or-sign-up' }) }
        },
      },
    ],
  })
  const rate = await warmUp(options(await issueCodes(url, child, `${prefix}w`, warmupAmount)))
  const count = typeof amount === 'function' ? amount(rate) : amount
  return measure(child, {
    run: options(await issueCodes(url, child, prefix, count)),
    dbCpuMicros,
  })
}

export async function measureServer({
  seconds: duration = seconds('BENCH_SECONDS', 10),
  warmup = seconds('BENCH_WARMUP_SECONDS', 2),
  connections = 16,
} = {}) {
  const server = await startServerProcess()
  try {
    const refresh = await measureRefresh(server, { duration, warmup, connections })
    const amount = Number(process.env.BENCH_EMAIL_LOGINS ?? 6000)
    const email = await measureEmailSignUp(server, {
      amount,
      warmupAmount: Math.min(500, amount),
      connections,
    })
    return {
      pinned: server.pinned,
      database: server.database,
      serverCores: affinity(server.child.pid),
      generatorCores: affinity(process.pid),
      machine: machineState(),
      refreshPerSecond: refresh.requestsPerSecond,
      refreshErrors: refresh.non2xx + refresh.errors,
      emailAuthPerSecond: email.requestsPerSecond,
      emailAuthErrors: email.non2xx + email.errors,
      refreshLatencyP99Ms: refresh.p99Ms,
      emailAuthLatencyP99Ms: email.p99Ms,
      refreshLatencyP50Ms: refresh.p50Ms,
      emailAuthLatencyP50Ms: email.p50Ms,
      refreshCpuUsPerRequest: refresh.serverCpuUsPerRequest,
      emailAuthCpuUsPerRequest: email.serverCpuUsPerRequest,
      // Set when the server did not have its core to itself: requests/s is then not a figure to quote.
      refreshContention: contention(refresh),
      emailAuthContention: contention(email),
      refresh,
      email,
    }
  } finally {
    await server.stop()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await measureServer())
