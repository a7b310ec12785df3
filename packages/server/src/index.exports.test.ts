import { expect, it } from 'vitest'
import * as server from './index.ts'
import * as verify from './verify.ts'

// The public surface is pinned: changing it is a deliberate, reviewed act.
it('exports of @latchkey/server', () => {
  expect(Object.keys(server).sort()).toMatchInlineSnapshot(`
    [
      "ApiError",
      "DEFAULT_PORT",
      "MemoryRateLimiter",
      "RedisRateLimiter",
      "SERVER_VERSION",
      "SmtpEmailSender",
      "TwilioSmsSender",
      "connectDatabase",
      "connectPostgres",
      "connectSqlite",
      "consoleLogger",
      "createApp",
      "createJsonLogger",
      "createLatchkeyServer",
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
    ]
  `)
})

it('exports of @latchkey/server/verify', () => {
  expect(Object.keys(verify).sort()).toEqual(['verifyAccessToken'])
})
