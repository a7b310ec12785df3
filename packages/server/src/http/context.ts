import type { IncomingMessage } from 'node:http'
import type { Kysely } from 'kysely'
import type { EmailSender } from '../adapters/email/types.ts'
import type { SmsSender } from '../adapters/sms/types.ts'
import type { AppCache } from '../apps/cache.ts'
import type { AppRecord } from '../apps/service.ts'
import type { OAuthOptions } from '../auth/oauth/providers.ts'
import type {
  CaptchaOptions,
  CloudRecoveryEndpoints,
  FarcasterOptions,
  Logger,
  RateLimitOptions,
  SessionOptions,
} from '../config.ts'
import type { SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'
import type { FundingServerOptions } from '../funding/options.ts'
import type { ServerMetrics } from '../metrics/registry.ts'
import type { TokenPrices } from '../prices/service.ts'
import type { RateLimiter } from '../rate-limit/types.ts'
import type { KeyStore } from '../sessions/keys.ts'
import type { Webhooks } from '../webhooks/service.ts'

/** Resolved configuration every service reads. */
export interface ResolvedConfig {
  publicUrl: string
  /**
   * Origins of this server's own pages (the enclave): the public URL's, or
   * without one the loopback names on the port (http/own-origins.ts). Never
   * derived from a request's Host.
   */
  ownOrigins: string[]
  issuer: string
  mailFrom: string
  rateLimits: RateLimitOptions
  sessions: SessionOptions
  trustProxy: boolean
  /** The dev mailbox is the email sender, and its routes are served. */
  devMailbox: boolean
  https: boolean
  /** Google / CloudKit endpoints of cloud recovery, defaults filled in. */
  cloudRecovery: CloudRecoveryEndpoints
  /** OAuth login endpoint overrides (auth/oauth/providers.ts). */
  oauth?: OAuthOptions
  /** SMS/WhatsApp login: allowed ISO countries ('US') and calling codes ('1'); null = all. */
  smsAllowedRegions: string[] | null
  /** EVM JSON-RPC endpoints by chain id (SIWE smart-account verification). */
  chainRpcUrls: Record<number, string>
  /** Farcaster relay and ID registry, defaults filled in. */
  farcaster: FarcasterOptions
  /** Captcha verification (docs/captcha.md), defaults filled in. */
  captcha: CaptchaOptions
  /** Funding hosts and Solana RPC endpoints (docs/funding.md), defaults filled in. */
  funding: FundingServerOptions
}

/** Everything a handler may use; built once per server. */
export interface Services {
  db: Kysely<Database>
  config: ResolvedConfig
  secrets: SecretBox
  keys: KeyStore
  limiter: RateLimiter
  email: EmailSender
  /** SMS/WhatsApp delivery (Twilio, the dev outbox, or a refusing sender). */
  sms: SmsSender
  apps: AppCache
  /** Token prices (prices/service.ts); null when no price source is configured. */
  prices: TokenPrices | null
  now: () => number
  logger: Logger
  /** Prometheus counters (metrics/registry.ts); `noMetrics` when /metrics is off. */
  metrics: ServerMetrics
  /** Webhook events to the app's endpoint (webhooks/service.ts): `emit`, and the delivery worker. */
  webhooks: Webhooks
}

/** The authenticated caller of an `auth: 'user'` or `auth: 'enclave'` route. */
export interface AuthContext {
  userId: string
  sessionId: string
  /** The app the session (and the user) belongs to. */
  appId: string
  /**
   * The RFC 7638 thumbprint of the enclave key the session was bound to at
   * login; null for an unbound session (sessions/enclave-key.ts).
   */
  enclaveKeyThumbprint: string | null
}

export interface HonoEnv {
  Bindings: { incoming?: IncomingMessage }
  Variables: { app: AppRecord | undefined }
}
