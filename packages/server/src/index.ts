/**
 * @module
 * The Latchkey server: HTTP API (Hono), storage (Kysely on SQLite or
 * Postgres), adapters and the programmatic parts of the CLI.
 *
 * @example
 * import { startServer, loadConfigFromEnv } from '@latchkey/server'
 * const { url } = await startServer(loadConfigFromEnv())
 */

export { SmtpEmailSender } from './adapters/email/smtp.ts'
export type { EmailMessage, EmailSender } from './adapters/email/types.ts'
export type { CoinGeckoOptions } from './adapters/prices/coingecko.ts'
export { type TwilioOptions, TwilioSmsSender } from './adapters/sms/twilio.ts'
export type { SmsChannel, SmsMessage, SmsSender } from './adapters/sms/types.ts'
export type { CredentialProvider, ProviderCredentials } from './apps/credentials.ts'
export {
  type AppRecord,
  type AppSettings,
  type CreateAppInput,
  type CreateAppResult,
  createApp,
  type EnsureAppResult,
  ensureApp,
  getAppById,
  listApps,
  normalizeOrigin,
  toAppConfig,
  verifyAppSecret,
} from './apps/service.ts'
export { runCli } from './cli.ts'
export {
  type CloudRecoveryEndpoints,
  type CloudRecoveryOptions,
  consoleLogger,
  DEFAULT_PORT,
  defaultCloudRecoveryEndpoints,
  defaultRateLimits,
  type LatchkeyServerOptions,
  type Logger,
  loadConfigFromEnv,
  type RateLimitOptions,
  type RateLimitRule,
  type SessionOptions,
  silentLogger,
} from './config.ts'
export { connectDatabase, connectPostgres, connectSqlite } from './db/connect.ts'
export { migrateToLatest } from './db/migrate.ts'
export type { Database } from './db/types.ts'
export { ApiError } from './errors.ts'
export { createJsonLogger, type JsonLoggerOptions } from './logging/json-logger.ts'
export type { LogLevel } from './logging/levels.ts'
export type { LogFields } from './logging/logger.ts'
export type { MetricsOptions } from './metrics/options.ts'
export { MemoryRateLimiter } from './rate-limit/memory.ts'
export { RedisRateLimiter } from './rate-limit/redis.ts'
export type { RateLimiter, RateLimitResult } from './rate-limit/types.ts'
export {
  createLatchkeyServerClient,
  type LatchkeyServerClient,
  type LatchkeyServerClientOptions,
  type VerifyTokenOptions,
} from './sdk/client.ts'
export { type ClientErrorCode, LatchkeyApiError } from './sdk/errors.ts'
export {
  createLatchkeyServer,
  defaultSessionOptions,
  type LatchkeyServer,
  SERVER_VERSION,
} from './server.ts'
export { rotateSigningKey } from './sessions/keys.ts'
export { type RunningServer, type StartServerOptions, startServer } from './start.ts'
export { type VerifyAccessTokenOptions, verifyAccessToken } from './verify.ts'
export type {
  TransactionSentData,
  WebhookEvent,
  WebhookEventData,
  WebhookEventType,
  WebhookWallet,
} from './webhooks/events.ts'
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from './webhooks/verify.ts'
