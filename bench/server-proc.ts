// The server under load, in its own process (pinned to one core by bench/server.mjs).
// Codes are captured in memory instead of mailed, so the load generator can log in.
// SQLite in a temporary folder, or PostgreSQL: BENCH_DATABASE_URL, in the schema
// BENCH_PG_SCHEMA (made and dropped by the bench).
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureApp, startServer } from '@latchkey/server'

export const BENCH_APP_ID = 'benchappaaaaaaaaaaaaaaaaa'
const codes: Record<string, string> = {}
const unlimited = { limit: 1_000_000_000, windowMs: 3_600_000 }

function databaseUrl(): string | undefined {
  const url = process.env.BENCH_DATABASE_URL
  const schema = process.env.BENCH_PG_SCHEMA
  if (!url || !schema) return url || undefined
  const inSchema = new URL(url)
  inSchema.searchParams.set('options', `-c search_path=${schema}`)
  inSchema.searchParams.set('application_name', `bench-${schema}`)
  return inSchema.toString()
}

const server = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  dataDir: await mkdtemp(join(tmpdir(), 'latchkey-bench-')),
  databaseUrl: databaseUrl(),
  emailSender: {
    kind: 'bench-capture',
    async send({ to, text }) {
      const code = /\b(\d{6})\b/.exec(text)?.[1]
      if (code) codes[to] = code
    },
  },
  rateLimits: {
    codeSendsPerIdentifier: unlimited,
    codeSendsPerIp: unlimited,
    codeAttemptsPerIdentifier: unlimited,
    codeAttemptsPerIp: unlimited,
    walletKeyRequestsPerIp: unlimited,
  },
  logger: { info() {}, warn() {}, error: (m) => console.error(m) },
})
// The enclave bench's host page must be an allowed origin (frame-ancestors).
const origins = process.env.BENCH_ORIGINS?.split(',').filter(Boolean) ?? []
// The enclave bench enrolls an authenticator app (TOTP) to time MFA and warm signatures.
await ensureApp(server.server.db, {
  id: BENCH_APP_ID,
  name: 'Bench',
  origins,
  settings: { mfa_methods: ['totp'] },
})

process.on('message', (message: { type: string }) => {
  if (message.type === 'codes') process.send?.({ type: 'codes', codes })
  // This process's CPU time: the bench divides its growth over a measured
  // window by the requests answered in it.
  if (message.type === 'cpu') process.send?.({ type: 'cpu', usage: process.cpuUsage() })
  if (message.type === 'stop') void server.close().then(() => process.exit(0))
})
process.send?.({ type: 'ready', url: server.url })
