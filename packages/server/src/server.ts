import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { ACCESS_TOKEN_TTL_S, routes } from '@latchkey/protocol'
import { Hono } from 'hono'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import { DevMailboxSender } from './adapters/email/dev-mailbox.ts'
import { SmtpEmailSender } from './adapters/email/smtp.ts'
import type { EmailSender } from './adapters/email/types.ts'
import { createSmsSender, DevOutboxSender } from './adapters/sms/index.ts'
import { analyticsEventRoute } from './analytics/routes.ts'
import { AppCache } from './apps/cache.ts'
import {
  type CredentialProvider,
  deleteAppProviderCredentials,
  type ProviderCredentials,
  setAppProviderCredentials,
} from './apps/credentials.ts'
import { appConfigRoute } from './apps/routes.ts'
import { crossAppRoutes } from './auth/cross-app/routes.ts'
import { customJwtRoutes } from './auth/custom-jwt/routes.ts'
import { emailRoutes } from './auth/email/routes.ts'
import { farcasterRoutes } from './auth/farcaster/routes.ts'
import { farcasterSignerRoutes } from './auth/farcaster/signer-routes.ts'
import { guestRoutes } from './auth/guest/routes.ts'
import { oauthRoutes } from './auth/oauth/routes.ts'
import { passkeyRoutes } from './auth/passkey/routes.ts'
import { siweRoutes } from './auth/siwe/routes.ts'
import { siwsRoutes } from './auth/siws/routes.ts'
import { devOutboxRoute, registerDevOutboxPage } from './auth/sms/dev-routes.ts'
import { resolveSmsAllowedRegions } from './auth/sms/phone.ts'
import { smsRoutes } from './auth/sms/routes.ts'
import { telegramRoutes } from './auth/telegram/routes.ts'
import { captchaRoutes } from './captcha/routes.ts'
import {
  consoleLogger,
  DEFAULT_PORT,
  defaultCaptchaOptions,
  defaultFarcasterOptions,
  defaultRateLimits,
  type LatchkeyServerOptions,
  resolveCloudRecoveryEndpoints,
  type SessionOptions,
} from './config.ts'
import { registerConsole } from './console/page.ts'
import { SecretBox } from './crypto/secrets.ts'
import { connectDatabase } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import type { Database } from './db/types.ts'
import { delegationAppRoutes, delegationRoutes } from './delegation/routes.ts'
import { devMailboxRoute, registerDevMailboxPage } from './dev/routes.ts'
import { registerEnclaveExportPage } from './enclave/export.ts'
import { registerEnclavePage } from './enclave/page.ts'
import { ApiError } from './errors.ts'
import { resolveFundingOptions } from './funding/options.ts'
import { fundingRoutes } from './funding/routes.ts'
import type { HonoEnv, ResolvedConfig, Services } from './http/context.ts'
import { cors } from './http/cors.ts'
import { healthRoute } from './http/health.ts'
import { resolveOwnOrigins } from './http/own-origins.ts'
import { type Readiness, readyRoute } from './http/ready.ts'
import { buildOpenApi, defineRoute, type RouteDefinition, registerRoutes } from './http/route.ts'
import { routeTemplate } from './http/route-template.ts'
import { securityHeaders } from './http/security-headers.ts'
import { isStoreUnavailable, unavailable } from './http/unavailable.ts'
import { requestLog } from './logging/access-log.ts'
import { withRequestId } from './logging/request-context.ts'
import { DEFAULT_PURGE_INTERVAL_MS } from './maintenance/purge.ts'
import { schedulePurge } from './maintenance/schedule.ts'
import { httpMetrics, registerMetricsRoute } from './metrics/http.ts'
import { resolveMetricsAccess } from './metrics/options.ts'
import { countRefusals, createServerMetrics, noMetrics } from './metrics/registry.ts'
import { mfaRoutes } from './mfa/routes.ts'
import { tokenPriceRoute } from './prices/routes.ts'
import { createTokenPrices } from './prices/service.ts'
import { chooseRateLimiter } from './rate-limit/choose.ts'
import { recoveryRoutes } from './recovery/routes.ts'
import { KeyStore } from './sessions/keys.ts'
import { appJwksRoute, logoutRoute, refreshRoute, wellKnownJwksRoute } from './sessions/routes.ts'
import { smartWalletLinkRoutes } from './smart-wallets/link-routes.ts'
import { smartWalletRoutes } from './smart-wallets/routes.ts'
import { usersAcceptTermsRoute, usersDeleteRoute, usersMeRoute } from './users/routes.ts'
import { appBackendRoutes } from './users/server-api-routes.ts'
import { transferRoutes } from './users/transfer-routes.ts'
import { walletRoutes } from './wallets/routes.ts'
import { createWebhooks, type WebhookOptions } from './webhooks/service.ts'

export const SERVER_VERSION = '0.1.0'

export const defaultSessionOptions: SessionOptions = {
  accessTokenTtlS: ACCESS_TOKEN_TTL_S,
  absoluteLifetimeMs: 30 * 24 * 60 * 60_000,
  idleLifetimeMs: 7 * 24 * 60 * 60_000,
  refreshOverlapMs: 10_000,
}

/** A running Latchkey server in process: the Hono app, its database, and a way to stop it. */
export interface LatchkeyServer {
  /** The Hono app; `app.fetch` serves requests, `app.request()` tests them. */
  app: Hono<HonoEnv>
  db: Kysely<Database>
  /** Services (keys, limiter, config…) for scripts and tests. */
  services: Services
  /** Every route definition (also the source of the OpenAPI document). */
  routes: RouteDefinition[]
  /**
   * Sets an app's credentials for a provider (sealed at rest) and applies
   * them at once on this node (other nodes: within the 5 s app cache TTL).
   * Throws on an unknown app or invalid credentials.
   *
   * @example
   * await server.setAppProviderCredentials(appId, {
   *   provider: 'google-drive', client_id: '…apps.googleusercontent.com', client_secret: process.env.GOOGLE_CLIENT_SECRET,
   * })
   */
  setAppProviderCredentials(appId: string, credentials: ProviderCredentials): Promise<void>
  /** Deletes an app's credentials for a provider; true when there were some. */
  deleteAppProviderCredentials(appId: string, provider: CredentialProvider): Promise<boolean>
  /** From now on `GET /ready` answers 503 (a shutdown drains: start.ts); every other route still serves. */
  startDraining(): void
  close(): Promise<void>
}

/**
 * The master key: given, or — outside production — generated once into
 * `${dataDir}/master.key` (mode 0600) and reused on every start.
 */
export function resolveMasterKey(
  options: LatchkeyServerOptions,
  dataDir: string,
): string | Uint8Array {
  if (options.masterKey) return options.masterKey
  if (options.production)
    throw new Error('LATCHKEY_MASTER_KEY is required in production (32 bytes, base64 or hex)')
  const file = join(dataDir, 'master.key')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const key = randomBytes(32).toString('base64')
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  options.logger?.warn?.(
    `generated a development master key in ${file}; set LATCHKEY_MASTER_KEY in production`,
  )
  return key
}

/**
 * Builds a Latchkey server: opens the database (SQLite file by default,
 * Postgres for a postgres:// URL), runs pending migrations, makes sure a
 * signing key exists, and wires every route.
 *
 * @example
 * const { app, close } = await createLatchkeyServer({ databaseUrl: process.env.DATABASE_URL })
 * const res = await app.request('/api/v1/openapi.json')
 */
export async function createLatchkeyServer(
  options: LatchkeyServerOptions & { webhooks?: WebhookOptions } = {},
): Promise<LatchkeyServer> {
  // Lines written while a request is served carry its id (logging/request-context.ts).
  const logger = withRequestId(options.logger ?? consoleLogger)
  const now = options.now ?? Date.now
  const dataDir = resolve(options.dataDir ?? '.data')
  const port = options.port ?? DEFAULT_PORT
  const publicUrl = (options.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '')
  const issuer = options.issuer ?? publicUrl
  const metricsAccess = resolveMetricsAccess(options.metrics)
  if (options.production && !options.publicUrl)
    logger.warn(
      `LATCHKEY_PUBLIC_URL is not set: tokens name ${publicUrl} as issuer, and the enclave works only from loopback addresses`,
    )

  let db: Kysely<Database>
  let ownsDb: boolean
  if (options.db) {
    db = options.db
    ownsDb = options.ownsDb ?? false
  } else {
    db = connectDatabase(options.databaseUrl, dataDir, { poolSize: options.databasePoolSize }).db
    ownsDb = true
  }

  const closers: Array<() => Promise<void>> = []
  try {
    await migrateToLatest(db)
    const secrets = new SecretBox(resolveMasterKey({ ...options, logger }, dataDir))

    let email: EmailSender
    let devMailbox = false
    if (options.emailSender) {
      email = options.emailSender
      devMailbox = email.kind === 'dev-mailbox'
    } else if (options.smtpUrl) {
      email = new SmtpEmailSender({
        url: options.smtpUrl,
        from: options.mailFrom ?? 'Latchkey <no-reply@localhost>',
      })
    } else {
      if (options.production && !options.forceDevMailbox)
        throw new Error(
          'SMTP_URL is required in production (the dev mailbox would publish login codes)',
        )
      email = new DevMailboxSender(db, logger, now)
      devMailbox = true
    }
    if (email.close) closers.push(() => email.close?.() ?? Promise.resolve())
    const sms = createSmsSender({
      injected: options.smsSender,
      twilio: options.twilio,
      devMailbox,
      production: options.production,
      logger,
      now,
    })
    if (sms.close) closers.push(() => sms.close?.() ?? Promise.resolve())

    const chosen = chooseRateLimiter({ ...options, now, logger })
    if (chosen.close) closers.push(chosen.close)
    // Metrics off: nothing counted, no collectors, no wrapper (metrics/registry.ts).
    const metrics = metricsAccess ? createServerMetrics() : noMetrics
    const limiter = metricsAccess ? countRefusals(chosen.limiter, metrics) : chosen.limiter

    const config: ResolvedConfig = {
      publicUrl,
      ownOrigins: resolveOwnOrigins(options.publicUrl, port),
      issuer,
      mailFrom: options.mailFrom ?? 'Latchkey <no-reply@localhost>',
      rateLimits: { ...defaultRateLimits, ...(options.rateLimits ?? {}) },
      sessions: { ...defaultSessionOptions, ...(options.sessions ?? {}) },
      trustProxy: options.trustProxy ?? false,
      devMailbox,
      https: publicUrl.startsWith('https://'),
      cloudRecovery: resolveCloudRecoveryEndpoints(options.cloudRecovery, options.production),
      oauth: options.oauth,
      smsAllowedRegions: resolveSmsAllowedRegions(options.smsAllowedRegions),
      chainRpcUrls: { ...(options.chainRpcUrls ?? {}) },
      farcaster: { ...defaultFarcasterOptions, ...(options.farcaster ?? {}) },
      captcha: { ...defaultCaptchaOptions, ...(options.captcha ?? {}) },
      funding: resolveFundingOptions(options.funding, options.production),
    }
    const keys = new KeyStore(db, secrets, now, config.sessions.accessTokenTtlS * 1000 + 5 * 60_000)
    await keys.init()
    // Started like the purge, closed before the database (docs: webhooks, "Delivery").
    const webhooks = createWebhooks({
      db,
      secrets,
      now,
      logger,
      metrics,
      production: options.production ?? false,
      options: options.webhooks,
    })
    closers.push(() => webhooks.close())
    const services: Services = {
      db,
      config,
      secrets,
      keys,
      limiter,
      email,
      sms,
      apps: new AppCache(db, now),
      prices: createTokenPrices(options, logger, now),
      now,
      logger,
      metrics,
      webhooks,
    }

    const stopPurge = schedulePurge({
      db,
      now,
      intervalMs: options.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS,
      logger,
      options: {
        codeResendCooldownMs: config.rateLimits.codeResendCooldownMs,
        sessions: config.sessions,
      },
    })
    closers.push(stopPurge)

    const definitions: RouteDefinition[] = [
      appConfigRoute,
      appJwksRoute,
      wellKnownJwksRoute,
      ...emailRoutes,
      ...smsRoutes,
      ...telegramRoutes,
      ...customJwtRoutes,
      ...guestRoutes,
      ...oauthRoutes,
      ...siweRoutes,
      ...siwsRoutes,
      ...smartWalletLinkRoutes,
      ...farcasterRoutes,
      ...farcasterSignerRoutes,
      ...crossAppRoutes,
      ...passkeyRoutes,
      refreshRoute,
      logoutRoute,
      usersMeRoute,
      usersAcceptTermsRoute,
      usersDeleteRoute,
      ...transferRoutes,
      ...walletRoutes,
      ...delegationRoutes,
      ...recoveryRoutes,
      ...mfaRoutes,
      analyticsEventRoute,
      ...captchaRoutes,
      tokenPriceRoute,
      ...fundingRoutes,
      ...smartWalletRoutes,
      // After usersMeRoute and usersDeleteRoute: `/users/:user_id` would match `/users/me` too.
      ...appBackendRoutes,
      ...delegationAppRoutes,
      ...(devMailbox ? [devMailboxRoute] : []),
      ...(sms instanceof DevOutboxSender ? [devOutboxRoute] : []),
    ]
    const openapiRoute = defineRoute({
      method: 'get',
      path: routes.openapi,
      summary: 'This OpenAPI 3.1 document',
      tags: ['meta'],
      auth: 'none',
      app: false,
      response: z.record(z.string(), z.unknown()),
      handler: async () => openapi as Record<string, unknown>,
    })
    const readiness: Readiness = { draining: false }
    definitions.push(openapiRoute, healthRoute(SERVER_VERSION), readyRoute(readiness))
    const openapi = buildOpenApi(definitions, { serverUrl: publicUrl, version: SERVER_VERSION })

    const app = new Hono<HonoEnv>()
    app.use('*', requestLog(logger))
    if (metricsAccess) app.use('*', httpMetrics(metrics))
    app.use('*', securityHeaders(config))
    app.use('*', cors(services))
    registerRoutes(app, definitions, services)
    if (metricsAccess) registerMetricsRoute(app, metrics, metricsAccess)
    registerEnclavePage(app, services, { bundlePath: options.enclaveBundlePath })
    registerEnclaveExportPage(app, services, {
      bundlePath: options.enclaveBundlePath
        ? join(dirname(options.enclaveBundlePath), 'export.js')
        : undefined,
    })
    registerConsole(app, services)
    if (devMailbox) registerDevMailboxPage(app, services)
    if (sms instanceof DevOutboxSender) registerDevOutboxPage(app, sms)
    app.notFound((c) => c.json(new ApiError('NOT_FOUND').toBody(), 404))
    app.onError((error, c) => {
      if (error instanceof ApiError)
        return c.json(error.toBody(), error.status as 400, error.headers())
      // The database is away (a restart, a cut): 503 and retry, not a 500 (docs/operations.md "Failures").
      if (isStoreUnavailable(error)) {
        const refusal = unavailable()
        return c.json(refusal.toBody(), 503, refusal.headers())
      }
      // Unknown failures: log the kind, answer without internals.
      logger.error(`unhandled error: ${error.name}: ${error.message}`, {
        method: c.req.method,
        route: routeTemplate(c),
      })
      return c.json(new ApiError('INTERNAL_ERROR').toBody(), 500)
    })

    return {
      app,
      db,
      services,
      routes: definitions,
      async setAppProviderCredentials(appId, credentials) {
        await setAppProviderCredentials(services, appId, credentials)
        services.apps.invalidate(appId)
      },
      async deleteAppProviderCredentials(appId, provider) {
        const deleted = await deleteAppProviderCredentials(services, appId, provider)
        services.apps.invalidate(appId)
        return deleted
      },
      startDraining() {
        readiness.draining = true
      },
      async close() {
        for (const close of closers.reverse()) await close().catch(() => {})
        if (ownsDb) await db.destroy()
      },
    }
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => {})
    if (ownsDb) await db.destroy().catch(() => {})
    throw error
  }
}
