/**
 * @module
 * One server process for the fault tests (faults.*.test.ts), started by
 * test/faults.ts as
 * `node --conditions=latchkey-source --import tsx fault-node.ts '<FaultNodeOptions as JSON>'`
 * with an IPC channel. It serves on PostgreSQL (`databaseUrl`, usually
 * through a test/tcp-proxy.ts the test cuts) or on SQLite in `dataDir`, with
 * rate limits in Redis (`redisUrl`, also behind a proxy) or in memory. Every
 * log line goes to stderr as JSON `{ level, message }` for the test to read.
 * It sends `{ type: 'ready', url }` once it serves; `{ type: 'stop' }` closes it.
 */
import { createServer } from 'node:http'
import type { RateLimitOptions } from '../config.ts'
import { ensureApp, startServer } from '../index.ts'
import { RedisRateLimiter } from '../rate-limit/redis.ts'

export interface FaultNodeOptions {
  /** PostgreSQL (its schema in `options=-c search_path`); without it, SQLite in `dataDir`. */
  databaseUrl?: string
  dataDir?: string
  redisUrl?: string
  redisPrefix?: string
  masterKey: string
  publicUrl: string
  appId: string
  origin: string
  rateLimits?: Partial<RateLimitOptions>
  /** Serve token prices from a stand-in price source in this process (every token: 1 USD). */
  prices?: boolean
}

export type FaultNodeMessage = { type: 'stop' }
export type FaultNodeReply = { type: 'ready'; url: string }

const options = JSON.parse(process.argv[2] ?? '{}') as FaultNodeOptions
const log =
  (level: string) =>
  (message: string): void => {
    process.stderr.write(`${JSON.stringify({ level, message })}\n`)
  }
const logger = { info: log('info'), warn: log('warn'), error: log('error') }

/** A CoinGecko stand-in: `/simple/price?ids=a,b` → `{ a: { usd: 1 }, b: { usd: 1 } }`. */
async function startPriceSource(): Promise<string> {
  const server = createServer((request, response) => {
    const ids = new URL(request.url ?? '/', 'http://x').searchParams.get('ids') ?? ''
    const body = Object.fromEntries(ids.split(',').map((id) => [id, { usd: 1 }]))
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  server.unref()
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
}

const limiter = options.redisUrl
  ? new RedisRateLimiter(options.redisUrl, { prefix: options.redisPrefix, logger })
  : undefined
const running = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  databaseUrl: options.databaseUrl,
  dataDir: options.dataDir,
  masterKey: options.masterKey,
  publicUrl: options.publicUrl,
  ...(limiter ? { rateLimiter: limiter } : {}),
  rateLimits: options.rateLimits,
  ...(options.prices ? { prices: { apiUrl: await startPriceSource() } } : {}),
  purgeIntervalMs: 0,
  shutdownTimeoutMs: 1_000,
  logger,
})
await ensureApp(running.server.db, {
  id: options.appId,
  name: 'Faults',
  origins: [options.origin],
  settings: { login_methods: { email: true, guest: true, wallet: true } },
})

process.on('message', (message: FaultNodeMessage) => {
  if (message.type === 'stop')
    void running
      .close()
      .then(() => limiter?.close())
      .finally(() => process.exit(0))
})
process.send?.({ type: 'ready', url: running.url } satisfies FaultNodeReply)
