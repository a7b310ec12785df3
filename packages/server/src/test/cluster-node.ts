/**
 * @module
 * One node of a two-node deployment, in a process of its own
 * (cluster.two-nodes.test.ts). Run with an IPC channel as
 * `node --conditions=latchkey-source --import tsx cluster-node.ts '<ClusterNodeOptions as JSON>'`.
 * It serves on PostgreSQL (`databaseUrl`, its schema in `options=-c search_path`)
 * with rate limits in Redis under `redisPrefix`, and answers the test over IPC:
 * `advance` moves its clock (the test's hand-driven clock: no sleeps),
 * `rotate` rotates the signing key through this node's key store, `stop`
 * closes it. It sends `{ type: 'ready', url }` once it serves.
 */
import { ensureApp, startServer } from '../index.ts'
import { RedisRateLimiter } from '../rate-limit/redis.ts'

export interface ClusterNodeOptions {
  databaseUrl: string
  redisUrl: string
  redisPrefix: string
  /** The deployment's master key, hex (the same on every node). */
  masterKey: string
  /** The deployment's public URL (the token issuer; the same on every node). */
  publicUrl: string
  appId: string
  origin: string
  /** Epoch ms the node's clock starts at (the same on every node). */
  startAt: number
  codeSendsPerAddress: number
}

export type ClusterNodeMessage =
  | { type: 'advance'; ms: number }
  | { type: 'rotate' }
  | { type: 'stop' }

export type ClusterNodeReply =
  | { type: 'ready'; url: string }
  | { type: 'advanced' }
  | { type: 'rotated'; kid: string }

const options = JSON.parse(process.argv[2] ?? '{}') as ClusterNodeOptions
let offset = options.startAt - Date.now()
const limiter = new RedisRateLimiter(options.redisUrl, { prefix: options.redisPrefix })
const running = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  databaseUrl: options.databaseUrl,
  masterKey: options.masterKey,
  publicUrl: options.publicUrl,
  rateLimiter: limiter,
  rateLimits: {
    codeSendsPerIdentifier: { limit: options.codeSendsPerAddress, windowMs: 3_600_000 },
  },
  now: () => Date.now() + offset,
  purgeIntervalMs: 0,
  shutdownTimeoutMs: 1_000,
  logger: { info() {}, warn() {}, error: (m: string) => console.error(m) },
})
// Both nodes make sure of the app, as two replicas of one deployment would (ensureApp is race-safe).
await ensureApp(running.server.db, {
  id: options.appId,
  name: 'Cluster',
  origins: [options.origin],
  settings: { login_methods: { email: true, sms: true, wallet: true }, mfa_methods: ['totp'] },
})

const reply = (message: ClusterNodeReply) => process.send?.(message)
process.on('message', (message: ClusterNodeMessage) => {
  if (message.type === 'advance') {
    offset += message.ms
    reply({ type: 'advanced' })
  }
  if (message.type === 'rotate')
    void running.server.services.keys.rotate().then((kid) => reply({ type: 'rotated', kid }))
  if (message.type === 'stop')
    void running
      .close()
      .then(() => limiter.close())
      .finally(() => process.exit(0))
})
reply({ type: 'ready', url: running.url })
