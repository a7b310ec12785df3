/**
 * @module
 * One node of a two-node deployment, in a process of its own
 * (cluster.two-nodes*.test.ts). Run with an IPC channel as
 * `node --conditions=latchkey-source --import tsx cluster-node.ts '<ClusterNodeOptions as JSON>'`.
 * It serves on PostgreSQL (`databaseUrl`, its schema in `options=-c search_path`)
 * with rate limits in Redis under `redisPrefix`, and answers the test over IPC:
 * `advance` moves its clock forward (real time plus the test's advances: no sleeps),
 * `rotate` rotates the signing key through this node's key store, `stop`
 * closes it. It sends `{ type: 'ready', url }` once it serves.
 */

import type { ProviderCredentials } from '../apps/credentials.ts'
import type { AppSettings } from '../apps/service.ts'
import type { OAuthOptions } from '../auth/oauth/providers.ts'
import type { FarcasterOptions, RateLimitOptions } from '../config.ts'
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
  /** Epoch ms the deployment's clock read at the real instant `clockBase` (the same on every node). */
  startAt: number
  /**
   * The real epoch ms (Date.now()) at which the deployment's clock read
   * `startAt`. Every node counts from this one instant, not from its own
   * start, so nodes started a second apart still agree on the time.
   */
  clockBase: number
  codeSendsPerAddress: number
  /** More rate-limit rules (load tests lift the per-IP ones: all their requests come from 127.0.0.1). */
  rateLimits?: Partial<RateLimitOptions>
  /** Merged over the app's default settings (login_methods merged key by key). */
  appSettings?: AppSettings
  /** OAuth provider endpoints (a local OpenID provider: test/oidc.ts). */
  oauth?: OAuthOptions
  /** Provider credentials every node sets on the app (an upsert: concurrent sets agree). */
  providerCredentials?: ProviderCredentials[]
  /** Farcaster relay and ID registry (auth/farcaster/testing.ts). */
  farcaster?: Partial<FarcasterOptions>
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
let offset = options.startAt - options.clockBase
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
    ...options.rateLimits,
  },
  now: () => Date.now() + offset,
  purgeIntervalMs: 0,
  oauth: options.oauth,
  farcaster: options.farcaster,
  shutdownTimeoutMs: 1_000,
  logger: { info() {}, warn() {}, error: (m: string) => console.error(m) },
})
// Both nodes make sure of the app, as two replicas of one deployment would (ensureApp is race-safe).
const settings: AppSettings = {
  mfa_methods: ['totp'],
  ...options.appSettings,
  login_methods: { email: true, sms: true, wallet: true, ...options.appSettings?.login_methods },
}
await ensureApp(running.server.db, {
  id: options.appId,
  name: 'Cluster',
  origins: [options.origin],
  settings,
})
for (const credentials of options.providerCredentials ?? [])
  await running.server.setAppProviderCredentials(options.appId, credentials)

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
