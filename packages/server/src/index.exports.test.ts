import { expect, it } from 'vitest'
import * as server from './index.ts'
import * as sdk from './sdk/index.ts'
import * as verify from './verify.ts'

// The public surface is pinned: changing it is a deliberate, reviewed act.
it('exports of @latchkey/server', () => {
  expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
    [
      "ApiError",
      "DEFAULT_PORT",
      "LatchkeyApiError",
      "MemoryRateLimiter",
      "RedisRateLimiter",
      "SERVER_VERSION",
      "SmtpEmailSender",
      "TwilioSmsSender",
      "WebhookVerificationError",
      "connectDatabase",
      "connectPostgres",
      "connectSqlite",
      "consoleLogger",
      "createApp",
      "createJsonLogger",
      "createLatchkeyServer",
      "createLatchkeyServerClient",
      "defaultCloudRecoveryEndpoints",
      "defaultRateLimits",
      "defaultSessionOptions",
      "ensureApp",
      "getAppById",
      "listApps",
      "loadConfigFromEnv",
      "migrateToLatest",
      "normalizeOrigin",
      "rotateSigningKey",
      "runCli",
      "silentLogger",
      "startServer",
      "toAppConfig",
      "verifyAccessToken",
      "verifyAppSecret",
      "verifyWebhook",
    ]
  `)
})

it('exports of @latchkey/server/sdk', () => {
  expect(Object.keys(sdk).sort()).toEqual([
    'LatchkeyApiError',
    'WebhookVerificationError',
    'createLatchkeyServerClient',
    'verifyWebhook',
  ])
})

it('exports of @latchkey/server/verify', () => {
  expect(Object.keys(verify).sort()).toEqual(['verifyAccessToken'])
})
