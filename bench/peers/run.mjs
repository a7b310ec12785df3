// `npm run bench:peers`: our server and better-auth under the same load
// generator, pinning (server core 0, autocannon core 1) and connection count,
// on SQLite and on PostgreSQL, side by side. See docs/benchmarks.md "Peers".
//
// BENCH_SECONDS (8) per measured window, BENCH_WARMUP_SECONDS (2) before each,
// BENCH_CONNECTIONS (16), BENCH_RUNS (1; the table shows each figure's median),
// BENCH_DATABASES (sqlite,postgres), BENCH_PG_URL (DATABASE_URL, else the local
// test database), BENCH_JSON=<file> to keep the rows.
import { writeFile } from 'node:fs/promises'
import pg from 'pg'
import { measureEmailSignUp, measureRefresh, startServerProcess } from '../server.mjs'
import { measureEmailOtpSignUp, measureSessionGet, startBetterAuth } from './better-auth.mjs'
import { affinity, codesFor, contention, machineState, seconds } from './harness.mjs'
import { formatRatios, formatTable, medianRow } from './table.mjs'

const duration = seconds('BENCH_SECONDS', 8)
const warmup = seconds('BENCH_WARMUP_SECONDS', 2)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16)
const runs = Number(process.env.BENCH_RUNS ?? 1)
const pgUrl =
  process.env.BENCH_PG_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const databases = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',')

const OPS = {
  refresh: 'refresh (rotation, 2× ES256)',
  emailCode: 'email-code sign-up (new address)',
  session: 'session check (get-session)',
  token: 'session → JWT (/token, jwt plugin)',
  emailOtp: 'email-OTP sign-up (new address)',
}
const settings = { duration, warmup, connections }
const signUps = { amount: (rate) => codesFor(rate, duration), warmupAmount: 300, connections }

async function reachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}

/** Runs `measurements` against a started server, then stops it; rows tagged with system and database. */
async function against(start, system, database, measurements) {
  const server = await start()
  const rows = []
  try {
    const cores = { server: affinity(server.child.pid), generator: affinity(process.pid) }
    for (const [operation, run] of measurements) {
      console.error(`${database} ${system}: ${operation}`)
      rows.push({ database, system, operation, ...(await run(server)), cores })
    }
  } finally {
    await server.stop()
  }
  return rows
}

function once(database, databaseUrl, run) {
  return [
    () =>
      against(() => startServerProcess({ databaseUrl }), 'latchkey', database, [
        [OPS.refresh, (s) => measureRefresh(s, { ...settings, prefix: `r${run}-` })],
        [OPS.emailCode, (s) => measureEmailSignUp(s, { ...signUps, prefix: `e${run}-` })],
      ]),
    () =>
      against(() => startBetterAuth({ databaseUrl }), 'better-auth', database, [
        [OPS.session, (s) => measureSessionGet(s, { ...settings, path: '/get-session' })],
        [OPS.token, (s) => measureSessionGet(s, { ...settings, path: '/token', prefix: 't' })],
        [OPS.emailOtp, (s) => measureEmailOtpSignUp(s, signUps)],
      ]),
  ]
}

const before = machineState()
const measured = []
for (const database of databases) {
  const databaseUrl = database === 'postgres' ? pgUrl : undefined
  if (databaseUrl && !(await reachable(databaseUrl))) {
    console.log(`PostgreSQL at ${databaseUrl} is not reachable: skipped.`)
    continue
  }
  for (let run = 0; run < runs; run++)
    // Alternate which system goes first, so drift in the machine's load
    // over a run does not always favour the same one.
    for (const system of run % 2
      ? once(database, databaseUrl, run).reverse()
      : once(database, databaseUrl, run))
      measured.push(...(await system()))
}

const rows = []
for (const row of measured) {
  const key = (r) => `${r.database}|${r.system}|${r.operation}`
  if (rows.some((r) => key(r) === key(row))) continue
  rows.push(medianRow(measured.filter((r) => key(r) === key(row))))
}

const after = machineState()
const pinning = [
  ...new Set(rows.map((r) => `server on ${r.cores.server}, generator on ${r.cores.generator}`)),
]
console.log(
  `\nPeer benchmark ${new Date().toISOString()}, node ${before.node}, ${before.cores} cores at ${before.mhz.join('/')} MHz, ${connections} connections, ${duration} s windows after ${warmup} s warm-up, median of ${runs}`,
)
console.log(`pinning: ${pinning.join('; ')}`)
console.log(
  `load average before ${before.loadAverage.join(' ')}, after ${after.loadAverage.join(' ')}\n`,
)
console.log(formatTable(rows))
console.log(
  '\nRatios. req/s: ours ÷ theirs. CPU/req: theirs ÷ ours (server + PostgreSQL backends), i.e. requests per CPU second',
)
console.log(
  formatRatios(rows, [
    [OPS.refresh, OPS.session],
    [OPS.refresh, OPS.token],
    [OPS.emailCode, OPS.emailOtp],
  ]),
)
const disturbed = rows.filter(contention)
if (disturbed.length)
  console.log(
    `\nRequests/s not the server's own (compare CPU/req instead):\n${disturbed
      .map((r) => `  ${r.database} ${r.system} ${r.operation}: ${contention(r)}`)
      .join('\n')}`,
  )
if (process.env.BENCH_JSON)
  await writeFile(
    process.env.BENCH_JSON,
    JSON.stringify({ before, after, rows, measured }, null, 2),
  )
