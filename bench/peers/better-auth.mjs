// better-auth's side of the peer benchmark: its process, and the two
// operations set against ours, through the same harness.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { call, measure, startPinnedServer, stopServer, warmUp } from './harness.mjs'
import { createSchema, isPostgresUrl } from './pg-schema.mjs'

const here = dirname(fileURLToPath(import.meta.url))

/** better-auth in its own process on core 0; on PostgreSQL in a new schema, dropped on exit. */
export async function startBetterAuth({ databaseUrl } = {}) {
  const pg = isPostgresUrl(databaseUrl) ? await createSchema(databaseUrl, 'bench_ba') : undefined
  try {
    const started = await startPinnedServer({
      script: join(here, 'better-auth-proc.mjs'),
      cwd: join(here, '..'),
      env: { BENCH_DATABASE_URL: databaseUrl ?? '', BENCH_PG_SCHEMA: pg?.schema ?? '' },
    })
    const dropped = new Promise((resolve) =>
      started.child.once('exit', () => resolve(pg?.drop().catch(() => {}))),
    )
    const stop = async () => {
      await stopServer(started.child)
      await dropped
    }
    return { ...started, stop, dbCpuMicros: pg?.cpuMicros }
  } catch (error) {
    await pg?.drop()
    throw error
  }
}

// A browser sends its page's origin with every POST; better-auth refuses
// state-changing requests without one (its CSRF check, left on).
const postHeaders = (url) => ({ 'content-type': 'application/json', origin: url })

async function post(url, path, body) {
  const response = await fetch(`${url}/api/auth${path}`, {
    method: 'POST',
    headers: postHeaders(url),
    body: JSON.stringify(body),
    // A setup request that never answers is a finding, not something to wait out.
    signal: AbortSignal.timeout(60_000),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response
}

/** Sends sign-in OTPs to `count` new addresses, 50 at a time, and collects them over IPC. */
async function issueOtps({ child, url }, prefix, count) {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${i}@bench.example`)
  for (let i = 0; i < emails.length; i += 50)
    await Promise.all(
      emails
        .slice(i, i + 50)
        .map((email) => post(url, '/email-otp/send-verification-otp', { email, type: 'sign-in' })),
    )
  const { codes } = await call(child, 'codes')
  return emails.map((email) => ({ email, otp: codes[email] }))
}

/** Signs up `count` users with OTPs; their session cookies. */
async function sessionCookies(server, prefix, count) {
  const cookies = []
  for (const body of await issueOtps(server, prefix, count)) {
    const response = await post(server.url, '/sign-in/email-otp', body)
    cookies.push(
      response.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    )
  }
  return cookies
}

/**
 * A GET with a session cookie, `connections * 2` sessions in turn: the
 * session check (`/get-session`: session and user read) or the jwt plugin's
 * `/token` (the same check, then the signing key read, decrypted and a JWT signed).
 */
export async function measureSessionGet(
  server,
  { path, duration, warmup, connections, prefix = 's' },
) {
  const cookies = await sessionCookies(server, prefix, connections * 2)
  let next = 0
  const options = (seconds) => ({
    url: server.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path: `/api/auth${path}`,
        setupRequest(req) {
          return { ...req, headers: { cookie: cookies[next++ % cookies.length] } }
        },
      },
    ],
  })
  return measure(server.child, {
    warmup: warmup > 0 && options(warmup),
    run: options(duration),
    dbCpuMicros: server.dbCpuMicros,
  })
}

/**
 * Email-OTP sign-in of new addresses, which signs each one up (a new user,
 * email verified) and opens a session: OTPs issued beforehand, as for ours.
 * `amount` as in bench/server.mjs `measureEmailSignUp`.
 */
export async function measureEmailOtpSignUp(
  server,
  { amount, warmupAmount, connections, prefix = 'e' },
) {
  const options = (pairs) => ({
    url: server.url,
    connections,
    amount: pairs.length,
    requests: [
      {
        method: 'POST',
        path: '/api/auth/sign-in/email-otp',
        headers: postHeaders(server.url),
        setupRequest(req) {
          return { ...req, body: JSON.stringify(pairs.pop()) }
        },
      },
    ],
  })
  const rate = await warmUp(options(await issueOtps(server, `${prefix}w`, warmupAmount)))
  const count = typeof amount === 'function' ? amount(rate) : amount
  return measure(server.child, {
    run: options(await issueOtps(server, prefix, count)),
    dbCpuMicros: server.dbCpuMicros,
  })
}
