// Server throughput: refresh-token and email-authenticate requests per second,
// with the server pinned to one core and the load generator in this process.
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

const here = dirname(fileURLToPath(import.meta.url))
const APP_ID = 'benchappaaaaaaaaaaaaaaaaa'
const headers = { 'content-type': 'application/json', 'latchkey-app-id': APP_ID }

export function startServerProcess({ origins = [] } = {}) {
  const pin = spawnSync('taskset', ['-V']).status === 0
  // The load generator (this process) stays off the server's core.
  if (pin) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' })
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
  const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
  // The server from its TypeScript sources: tsx, and the packages' `latchkey-source` export.
  const node = [
    process.execPath,
    ...extra,
    '--conditions=latchkey-source',
    '--import',
    'tsx',
    join(here, 'server-proc.ts'),
  ]
  const [command, ...args] = pin ? ['taskset', '-c', '0', ...node] : node
  const child = spawn(command, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    cwd: here,
    env: { ...process.env, BENCH_ORIGINS: origins.join(',') },
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.on('message', (m) => {
      if (m.type === 'ready') resolve({ child, url: m.url, pinned: pin })
    })
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
  })
}

export const ask = (child) =>
  new Promise((resolve) => {
    child.once('message', (m) => resolve(m.codes))
    child.send({ type: 'codes' })
  })

async function post(url, path, body) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** Issues codes for `count` new addresses, `concurrency` at a time. */
async function issueCodes(url, child, prefix, count) {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${i}@bench.example`)
  for (let i = 0; i < emails.length; i += 50)
    await Promise.all(
      emails.slice(i, i + 50).map((email) => post(url, '/api/v1/passwordless/init', { email })),
    )
  const codes = await ask(child)
  return emails.map((email) => ({ email, code: codes[email] }))
}

function load(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) =>
      error ? reject(error) : resolve(result),
    )
    autocannon.track(instance, {
      renderProgressBar: false,
      renderResultsTable: false,
      renderLatencyTable: false,
    })
  })
}

export async function measureServer({ seconds = 10, connections = 16 } = {}) {
  const { child, url, pinned } = await startServerProcess()
  try {
    // Refresh: a pool of live refresh tokens; each answer puts its rotated
    // successor back. (autocannon resets per-connection context between
    // requests, so the chain lives here.) Twice as many sessions as
    // connections keeps the pool from running dry between answer and request.
    const sessions = []
    for (const { email, code } of await issueCodes(url, child, 'r', connections * 2)) {
      const auth = await post(url, '/api/v1/passwordless/authenticate', { email, code })
      sessions.push(auth.refresh_token)
    }
    const refresh = await load({
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

    // Email authenticate: each request logs in (signs up) a fresh address with its code.
    const amount = Number(process.env.BENCH_EMAIL_LOGINS ?? 6000)
    const pairs = await issueCodes(url, child, 'e', amount)
    const email = await load({
      url,
      connections,
      amount,
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
    const ok = (r) => r['2xx'] / r.duration
    return {
      pinned,
      refreshPerSecond: Math.round(ok(refresh)),
      refreshErrors: refresh.non2xx + refresh.errors,
      emailAuthPerSecond: Math.round(ok(email)),
      emailAuthErrors: email.non2xx + email.errors,
      refreshLatencyP99Ms: refresh.latency.p99,
      emailAuthLatencyP99Ms: email.latency.p99,
    }
  } finally {
    child.send({ type: 'stop' })
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await measureServer())
