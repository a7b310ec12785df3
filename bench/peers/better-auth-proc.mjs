// better-auth under load, in its own process (pinned to one core by the
// runner), served the way its docs show for Node: `toNodeHandler` on node:http.
// Configured as a self-hoster would for this comparison: the email-OTP plugin
// (OTPs captured in memory instead of mailed, handed over IPC like
// bench/server-proc.ts does), the jwt plugin, rate limits off. SQLite (WAL,
// synchronous=NORMAL, as ours) in a temporary folder, or PostgreSQL:
// BENCH_DATABASE_URL in the schema BENCH_PG_SCHEMA (made and dropped by the runner).

import { mkdtemp } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { betterAuth } from 'better-auth'
import { getMigrations } from 'better-auth/db/migration'
import { toNodeHandler } from 'better-auth/node'
import { emailOTP, jwt } from 'better-auth/plugins'
import Database from 'better-sqlite3'
import pg from 'pg'

const otps = {}

async function database() {
  const url = process.env.BENCH_DATABASE_URL
  const schema = process.env.BENCH_PG_SCHEMA
  if (url && schema)
    // node-postgres's default pool (10 connections), as our server's.
    return new pg.Pool({
      connectionString: url,
      options: `-c search_path=${schema}`,
      application_name: `bench-${schema}`,
    })
  const sqlite = new Database(join(await mkdtemp(join(tmpdir(), 'better-auth-bench-')), 'auth.db'))
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('busy_timeout = 5000')
  return sqlite
}

// Listen first: better-auth wants its base URL, which holds the port.
const server = createServer()
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const baseURL = `http://127.0.0.1:${server.address().port}`

const auth = betterAuth({
  baseURL,
  secret: 'bench-secret-bench-secret-bench-secret-0123456789',
  database: await database(),
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
  plugins: [
    emailOTP({
      async sendVerificationOTP({ email, otp }) {
        otps[email] = otp
      },
    }),
    // Without this flag every get-session would also sign a JWT into a
    // `set-auth-jwt` header; off, the session check is the plain one and the
    // signing is measured on its own at /token.
    jwt({ disableSettingJwtHeader: true }),
  ],
})

const { runMigrations } = await getMigrations(auth.options)
await runMigrations()
server.on('request', toNodeHandler(auth))

process.on('message', (message) => {
  if (message.type === 'codes') process.send?.({ type: 'codes', codes: otps })
  if (message.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() })
  if (message.type === 'stop') {
    server.close()
    server.closeAllConnections()
    process.exit(0)
  }
})
process.send?.({ type: 'ready', url: baseURL })
