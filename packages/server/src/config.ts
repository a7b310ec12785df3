import { CODE_RESEND_COOLDOWN_MS } from '@latchkey/protocol/constants'
import type { Kysely } from 'kysely'
import type { EmailSender } from './adapters/email/types.ts'
import { type CoinGeckoOptions, coinGeckoOptionsFromEnv } from './adapters/prices/coingecko.ts'
import type { TwilioOptions } from './adapters/sms/twilio.ts'
import type { SmsSender } from './adapters/sms/types.ts'
import type { FarcasterApiOptions } from './auth/farcaster/signer-api.ts'
import type { OAuthOptions } from './auth/oauth/providers.ts'
import type { Database } from './db/types.ts'
import { type FundingOptions, fundingOptionsFromEnv } from './funding/options.ts'
import { type LogLevel, logLevelFromEnv } from './logging/levels.ts'
import type { Logger } from './logging/logger.ts'
import { type MetricsOptions, metricsOptionsFromEnv } from './metrics/options.ts'
import type { RateLimiter } from './rate-limit/types.ts'

export { consoleLogger, type LogFields, type Logger, silentLogger } from './logging/logger.ts'

/** Per-purpose request caps. Each is `limit` hits per `windowMs`. */
export interface RateLimitRule {
  limit: number
  windowMs: number
}

export interface RateLimitOptions {
  /** Codes sent to one address (default 10 per hour). */
  codeSendsPerIdentifier: RateLimitRule
  /** Codes requested from one IP (default 50 per hour). */
  codeSendsPerIp: RateLimitRule
  /** Minimum time between two codes to one address (default CODE_RESEND_COOLDOWN_MS, 30 s, spec 01 §9). */
  codeResendCooldownMs: number
  /** Code attempts (right or wrong) for one address, across codes (default 20 per hour). */
  codeAttemptsPerIdentifier: RateLimitRule
  /** Code attempts (right or wrong) from one IP, across addresses and apps (default 100 per hour). */
  codeAttemptsPerIp: RateLimitRule
  /**
   * Embedded-wallet key requests from one IP, across apps: create and import,
   * add, auth share (signing, export), recovery material, set recovery and
   * the cloud-recovery consent routes (default 600 per 10 minutes).
   */
  walletKeyRequestsPerIp: RateLimitRule
  /** Cloud-recovery consents (init, init_icloud) one user may start (default 20 per 10 minutes). */
  cloudConsentsPerUser: RateLimitRule
  /** Telegram authenticate/link calls from one IP (default 30 per minute). */
  telegramAuthPerIp: RateLimitRule
  /** Token price lookups from one IP, across apps (default 120 per minute). */
  tokenPricesPerIp: RateLimitRule
}

export interface SessionOptions {
  /** Access and identity token lifetime, seconds (default ACCESS_TOKEN_TTL_S = 3600). */
  accessTokenTtlS: number
  /** A session ends this long after login whatever happens (default 30 days). */
  absoluteLifetimeMs: number
  /** A session ends when unused (not refreshed) this long (default 7 days). */
  idleLifetimeMs: number
  /** A rotated refresh token is still accepted this long, for concurrent refreshes (default 10 s). */
  refreshOverlapMs: number
}

/**
 * Where cloud recovery talks to Google and CloudKit. The server calls the
 * token endpoint and CloudKit's users/caller; the enclave page calls the two
 * API bases from the browser (its CSP `connect-src` lists exactly their
 * origins).
 */
export interface CloudRecoveryEndpoints {
  google: {
    /** OAuth 2.0 consent page (the host navigates there). */
    authorizationUrl: string
    /** OAuth 2.0 token endpoint (the server exchanges codes there). */
    tokenUrl: string
    /** Google APIs base: Drive at /drive/v3, uploads at /upload/drive/v3. */
    apiBaseUrl: string
  }
  icloud: {
    /** CloudKit Web Services base. */
    apiBaseUrl: string
  }
}

/** The option: any endpoint left out keeps its default (the real services). */
export interface CloudRecoveryOptions {
  google?: Partial<CloudRecoveryEndpoints['google']>
  icloud?: Partial<CloudRecoveryEndpoints['icloud']>
}

/** The real Google and CloudKit endpoints. */
export const defaultCloudRecoveryEndpoints: CloudRecoveryEndpoints = {
  google: {
    authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    apiBaseUrl: 'https://www.googleapis.com',
  },
  icloud: { apiBaseUrl: 'https://api.apple-cloudkit.com' },
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * The endpoints with defaults filled in, each checked to be an http(s) URL
 * without credentials, query or fragment (API bases lose a trailing `/`).
 * In production they must be https (a loopback host excepted, for local
 * fakes): the token endpoint receives the app's client secret.
 */
export function resolveCloudRecoveryEndpoints(
  options: CloudRecoveryOptions = {},
  production = false,
): CloudRecoveryEndpoints {
  const check = (name: string, value: string, base: boolean): string => {
    let url: URL
    try {
      url = new URL(value)
    } catch {
      throw new Error(`cloudRecovery.${name} is not a URL: ${value}`)
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`cloudRecovery.${name} must be an http(s) URL`)
    if (url.username || url.password || url.search || url.hash)
      throw new Error(`cloudRecovery.${name} must have no credentials, query or fragment`)
    if (production && url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
      throw new Error(`cloudRecovery.${name} must be https in production`)
    return base ? url.href.replace(/\/+$/, '') : url.href
  }
  const google = { ...defaultCloudRecoveryEndpoints.google, ...(options.google ?? {}) }
  const icloud = { ...defaultCloudRecoveryEndpoints.icloud, ...(options.icloud ?? {}) }
  return {
    google: {
      authorizationUrl: check('google.authorizationUrl', google.authorizationUrl, false),
      tokenUrl: check('google.tokenUrl', google.tokenUrl, false),
      apiBaseUrl: check('google.apiBaseUrl', google.apiBaseUrl, true),
    },
    icloud: { apiBaseUrl: check('icloud.apiBaseUrl', icloud.apiBaseUrl, true) },
  }
}

/**
 * Options of {@link createLatchkeyServer}. Everything is optional; missing
 * values get the documented defaults (see docs/server.md). Environment
 * variables are read only by {@link loadConfigFromEnv}.
 */
export interface LatchkeyServerOptions {
  /** `postgres://…` selects Postgres; anything else (or nothing) the SQLite file in `dataDir`. */
  databaseUrl?: string
  /** PostgreSQL connections this node may open (default 10; docs/operations.md "Sizing"). */
  databasePoolSize?: number
  /** An already-open Kysely instance (tests); wins over `databaseUrl`. Not closed by `close()` unless `ownsDb`. */
  db?: Kysely<Database>
  /** Close the injected `db` on `close()` (default false). */
  ownsDb?: boolean
  /** Directory for the SQLite file and the dev master key (default `.data` under cwd). */
  dataDir?: string
  /**
   * Public base URL of this server; also the token issuer (default
   * http://localhost:PORT). Origin checks take its origin as this server's
   * own (the enclave's), next to the apps' allowed origins; without it, the
   * loopback names on `port`. The request's Host is never trusted.
   */
  publicUrl?: string
  /** Token issuer, when it must differ from publicUrl. */
  issuer?: string
  /** 32 bytes, base64 or hex. Absent outside production: generated once into `${dataDir}/master.key`. */
  masterKey?: string | Uint8Array
  /** `smtp://user:pass@host:port` → SMTP delivery; unset → the dev mailbox. */
  smtpUrl?: string
  /** Inject an email sender (tests); wins over smtpUrl. */
  emailSender?: EmailSender
  /** From address of emails (default `Latchkey <no-reply@localhost>`). */
  mailFrom?: string
  /** `redis://…` → rate limits in Redis; unset → in process memory. */
  redisUrl?: string
  /** Inject a rate limiter (tests). */
  rateLimiter?: RateLimiter
  rateLimits?: Partial<RateLimitOptions>
  sessions?: Partial<SessionOptions>
  /** Read the client IP from the last X-Forwarded-For entry (set only behind a proxy you control). */
  trustProxy?: boolean
  /** Production refuses to start without a master key and without SMTP (the dev mailbox shows codes). */
  production?: boolean
  /** Serve the dev mailbox even in production (never do this on the internet). */
  forceDevMailbox?: boolean
  /** The built enclave page bundle (default: packages/enclave/dist/enclave.js from source, dist/assets/enclave.js installed). */
  enclaveBundlePath?: string
  /** Clock in epoch ms, injectable for tests. */
  now?: () => number
  /** Milliseconds between purges of expired rows (maintenance/purge.ts; default 10 minutes, 0 = off). */
  purgeIntervalMs?: number
  logger?: Logger
  /** Port used only for the default publicUrl (default 8787). */
  port?: number
  /** Google / CloudKit endpoints of cloud recovery (default: the real services; tests use local fakes). */
  cloudRecovery?: CloudRecoveryOptions
  /** OAuth login provider endpoint overrides (default: the real providers; tests use local servers). */
  oauth?: OAuthOptions
  /** Twilio delivery of SMS/WhatsApp codes; unset → the dev outbox (only with the dev mailbox). */
  twilio?: TwilioOptions
  /** Inject an SMS sender (tests); wins over `twilio`. */
  smsSender?: SmsSender
  /**
   * Regions SMS/WhatsApp login accepts numbers from: ISO 3166 country codes
   * ('US', 'GB') and/or country calling codes ('1', '+44'). Unset: all.
   */
  smsAllowedRegions?: string[]
  /**
   * JSON-RPC endpoints by EVM chain id. SIWE verifies smart-account
   * signatures (ERC-1271, ERC-6492) through the message's chain; a chain
   * without an endpoint accepts EOA signatures only.
   */
  chainRpcUrls?: Record<number, string>
  /** Farcaster sign-in: the relay, and where the ID registry is read (see docs/login-farcaster.md). */
  farcaster?: Partial<FarcasterOptions>
  /** Captcha verification (docs/captcha.md): Turnstile's siteverify endpoint and timeout. */
  captcha?: Partial<CaptchaOptions>
  /** Token prices from CoinGecko's simple/price API (docs/server.md "Token prices"); unset: off. */
  prices?: CoinGeckoOptions
  /** `GET /metrics` (docs/operations.md "Metrics"): a bearer token, or public; unset: off. */
  metrics?: MetricsOptions
  /** Funding hosts (MoonPay, Coinbase Onramp, bridge) and Solana RPC per cluster: docs/funding.md. */
  funding?: FundingOptions
}

/** Where and how long the server asks Cloudflare about a Turnstile token (docs/captcha.md). */
export interface CaptchaOptions {
  /** Turnstile siteverify (default https://challenges.cloudflare.com/turnstile/v0/siteverify). */
  turnstileSiteverifyUrl: string
  /** Give up on siteverify after this long and refuse the login: CAPTCHA_TIMEOUT (default 5000 ms). */
  turnstileTimeoutMs: number
}

export const defaultCaptchaOptions: CaptchaOptions = {
  turnstileSiteverifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  turnstileTimeoutMs: 5_000,
}

/** Where Farcaster sign-in talks to: the Connect relay and the ID registry on Optimism. */
export interface FarcasterOptions extends FarcasterApiOptions {
  /** Farcaster Connect relay (default https://relay.farcaster.xyz). */
  relayUrl: string
  /** Optimism JSON-RPC endpoint the ID registry is read through (default https://mainnet.optimism.io). */
  optimismRpcUrl: string
  /** The IdRegistry contract (default 0x00000000Fc6c5F01Fc30151999387Bb99A9f489b). */
  idRegistryAddress: `0x${string}`
}

export const defaultFarcasterOptions: FarcasterOptions = {
  relayUrl: 'https://relay.farcaster.xyz',
  optimismRpcUrl: 'https://mainnet.optimism.io',
  idRegistryAddress: '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b',
}

/** `1=https://eth.example,8453=https://base.example` → { 1: …, 8453: … }. */
export function parseChainRpcUrls(value: string | undefined): Record<number, string> | undefined {
  if (!value) return undefined
  const out: Record<number, string> = {}
  for (const entry of value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf('=')
    const id = Number(entry.slice(0, at))
    const url = entry.slice(at + 1)
    if (at < 1 || !Number.isSafeInteger(id) || id <= 0 || !/^https?:\/\//.test(url))
      throw new Error(`LATCHKEY_RPC_URLS entries must be <chain id>=<http(s) url>, got ${entry}`)
    out[id] = url
  }
  return out
}

/** Default caps; see docs/server.md. */
export const defaultRateLimits: RateLimitOptions = {
  codeSendsPerIdentifier: { limit: 10, windowMs: 60 * 60_000 },
  codeSendsPerIp: { limit: 50, windowMs: 60 * 60_000 },
  codeAttemptsPerIdentifier: { limit: 20, windowMs: 60 * 60_000 },
  codeAttemptsPerIp: { limit: 100, windowMs: 60 * 60_000 },
  walletKeyRequestsPerIp: { limit: 600, windowMs: 10 * 60_000 },
  cloudConsentsPerUser: { limit: 20, windowMs: 10 * 60_000 },
  telegramAuthPerIp: { limit: 30, windowMs: 60_000 },
  tokenPricesPerIp: { limit: 120, windowMs: 60_000 },
  codeResendCooldownMs: CODE_RESEND_COOLDOWN_MS,
}

export const DEFAULT_PORT = 8787

/**
 * Reads the server options from environment variables. This is the only
 * place the server looks at `process.env`.
 *
 * @example
 * const server = await startServer({ ...loadConfigFromEnv(), port: 8787 })
 */
export function loadConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LatchkeyServerOptions & {
  port: number
  hostname: string
  /** `LATCHKEY_SHUTDOWN_TIMEOUT_MS`: startServer's drain bound (start.ts). */
  shutdownTimeoutMs?: number
  /** `LATCHKEY_LOG_LEVEL`: the level of `latchkey serve`'s JSON logs (default info). */
  logLevel: LogLevel
} {
  const port = env.PORT ? Number.parseInt(env.PORT, 10) : DEFAULT_PORT
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`)
  const int = (name: string): number | undefined => {
    const value = env[name]
    if (value === undefined || value === '') return undefined
    const n = Number.parseInt(value, 10)
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative integer`)
    return n
  }
  const hour = 60 * 60_000
  const rateLimits: Partial<RateLimitOptions> = {}
  const sends = int('LATCHKEY_RATE_CODE_SENDS_PER_ADDRESS')
  if (sends !== undefined) rateLimits.codeSendsPerIdentifier = { limit: sends, windowMs: hour }
  const perIp = int('LATCHKEY_RATE_CODE_SENDS_PER_IP')
  if (perIp !== undefined) rateLimits.codeSendsPerIp = { limit: perIp, windowMs: hour }
  const failures = int('LATCHKEY_RATE_CODE_ATTEMPTS_PER_ADDRESS')
  if (failures !== undefined)
    rateLimits.codeAttemptsPerIdentifier = { limit: failures, windowMs: hour }
  const attemptsPerIp = int('LATCHKEY_RATE_CODE_ATTEMPTS_PER_IP')
  if (attemptsPerIp !== undefined)
    rateLimits.codeAttemptsPerIp = { limit: attemptsPerIp, windowMs: hour }
  const keyRequests = int('LATCHKEY_RATE_WALLET_KEY_REQUESTS_PER_IP')
  if (keyRequests !== undefined)
    rateLimits.walletKeyRequestsPerIp = { limit: keyRequests, windowMs: 10 * 60_000 }
  const sessions: Partial<SessionOptions> = {}
  const ttl = int('LATCHKEY_ACCESS_TOKEN_TTL_S')
  if (ttl !== undefined) sessions.accessTokenTtlS = ttl
  const abs = int('LATCHKEY_SESSION_ABSOLUTE_MS')
  if (abs !== undefined) sessions.absoluteLifetimeMs = abs
  const idle = int('LATCHKEY_SESSION_IDLE_MS')
  if (idle !== undefined) sessions.idleLifetimeMs = idle
  const purgeIntervalMs = int('LATCHKEY_PURGE_INTERVAL_MS')
  const shutdownTimeoutMs = int('LATCHKEY_SHUTDOWN_TIMEOUT_MS')
  const databasePoolSize = int('LATCHKEY_DATABASE_POOL_SIZE')
  if (databasePoolSize !== undefined && databasePoolSize < 1)
    throw new Error('LATCHKEY_DATABASE_POOL_SIZE must be at least 1')
  const google: NonNullable<CloudRecoveryOptions['google']> = {}
  if (env.LATCHKEY_GOOGLE_AUTHORIZATION_URL)
    google.authorizationUrl = env.LATCHKEY_GOOGLE_AUTHORIZATION_URL
  if (env.LATCHKEY_GOOGLE_TOKEN_URL) google.tokenUrl = env.LATCHKEY_GOOGLE_TOKEN_URL
  if (env.LATCHKEY_GOOGLE_API_BASE_URL) google.apiBaseUrl = env.LATCHKEY_GOOGLE_API_BASE_URL
  const icloud: NonNullable<CloudRecoveryOptions['icloud']> = {}
  if (env.LATCHKEY_CLOUDKIT_API_BASE_URL) icloud.apiBaseUrl = env.LATCHKEY_CLOUDKIT_API_BASE_URL
  const logLevel = logLevelFromEnv(env)
  return {
    port,
    hostname: env.HOST || '127.0.0.1',
    logLevel,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.LATCHKEY_DATA_DIR || undefined,
    publicUrl: env.LATCHKEY_PUBLIC_URL || undefined,
    masterKey: env.LATCHKEY_MASTER_KEY || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.LATCHKEY_MAIL_FROM || undefined,
    redisUrl: env.REDIS_URL || undefined,
    trustProxy: env.LATCHKEY_TRUST_PROXY === '1' || env.LATCHKEY_TRUST_PROXY === 'true',
    production: env.NODE_ENV === 'production',
    rateLimits,
    sessions,
    ...(purgeIntervalMs !== undefined ? { purgeIntervalMs } : {}),
    ...(shutdownTimeoutMs !== undefined ? { shutdownTimeoutMs } : {}),
    ...(databasePoolSize !== undefined ? { databasePoolSize } : {}),
    cloudRecovery: { google, icloud },
    twilio: twilioFromEnv(env),
    chainRpcUrls: parseChainRpcUrls(env.LATCHKEY_RPC_URLS),
    prices: coinGeckoOptionsFromEnv(env),
    metrics: metricsOptionsFromEnv(env),
    funding: fundingOptionsFromEnv(env),
    farcaster: {
      ...(env.LATCHKEY_FARCASTER_RELAY_URL ? { relayUrl: env.LATCHKEY_FARCASTER_RELAY_URL } : {}),
      ...(env.LATCHKEY_OPTIMISM_RPC_URL ? { optimismRpcUrl: env.LATCHKEY_OPTIMISM_RPC_URL } : {}),
      ...(env.LATCHKEY_FARCASTER_ID_REGISTRY
        ? { idRegistryAddress: env.LATCHKEY_FARCASTER_ID_REGISTRY as `0x${string}` }
        : {}),
      ...(env.LATCHKEY_FARCASTER_API_URL ? { apiUrl: env.LATCHKEY_FARCASTER_API_URL } : {}),
    },
    captcha: env.LATCHKEY_TURNSTILE_SITEVERIFY_URL
      ? { turnstileSiteverifyUrl: env.LATCHKEY_TURNSTILE_SITEVERIFY_URL }
      : undefined,
    smsAllowedRegions: env.LATCHKEY_SMS_ALLOWED_REGIONS
      ? env.LATCHKEY_SMS_ALLOWED_REGIONS.split(',')
          .map((r) => r.trim())
          .filter(Boolean)
      : undefined,
  }
}

/** Twilio options from LATCHKEY_TWILIO_*; undefined when no account SID is set. */
function twilioFromEnv(env: NodeJS.ProcessEnv): TwilioOptions | undefined {
  const accountSid = env.LATCHKEY_TWILIO_ACCOUNT_SID
  if (!accountSid) return undefined
  if (!env.LATCHKEY_TWILIO_AUTH_TOKEN)
    throw new Error('LATCHKEY_TWILIO_AUTH_TOKEN is required with LATCHKEY_TWILIO_ACCOUNT_SID')
  return {
    accountSid,
    authToken: env.LATCHKEY_TWILIO_AUTH_TOKEN,
    from: env.LATCHKEY_TWILIO_FROM || undefined,
    messagingServiceSid: env.LATCHKEY_TWILIO_MESSAGING_SERVICE_SID || undefined,
    whatsappFrom: env.LATCHKEY_TWILIO_WHATSAPP_FROM || undefined,
    baseUrl: env.LATCHKEY_TWILIO_BASE_URL || undefined,
  }
}
