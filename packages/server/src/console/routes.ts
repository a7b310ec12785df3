import { z } from 'zod'
import { createApp, listApps, updateAppSettings } from '../apps/service.ts'
import { ApiError, limited } from '../errors.ts'
import { clientIp } from '../http/client-ip.ts'
import type { RouteDefinition } from '../http/route.ts'
import { ipBucket } from '../rate-limit/limit-per-ip.ts'
import { verifyAdminToken } from './admin-credentials.ts'
import { recordAdminAction } from './audit.ts'
import { CONSOLE_CREDENTIAL_ROUTES } from './credential-routes.ts'
import { CONSOLE_API, CONSOLE_LOGIN_PATH, consoleAdminOf } from './guard.ts'
import { CONSOLE_LOG_ROUTES } from './log-routes.ts'
import { APP, anything, appOf, asInvalidPayload, consoleRoute, noBody } from './route-kit.ts'
import { clearSessionCookie, setSessionCookie } from './session-cookie.ts'
import { endConsoleSession, startConsoleSession } from './sessions.ts'
import { CONSOLE_SMART_WALLET_ROUTES } from './smart-wallet-routes.ts'
import { CONSOLE_USER_ROUTES } from './user-routes.ts'

// The console's API (docs/console.md): under /console/api, not /api/v1 — it is
// no part of the SDK surface nor of the OpenAPI document. Registered behind
// consoleGuard (origin, CSRF header, session), with `app: false`: the app a
// call is about is a path segment, looked up here, not the caller's app.
// Here: sign-in, apps and settings; users in user-routes.ts, events and the
// audit log in log-routes.ts. Every change writes an audit row (audit.ts).

/** Sign-in attempts one client address may make per window (every attempt counts). */
export const CONSOLE_LOGIN_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const

const appSummary = (app: {
  id: string
  name: string
  allowedOrigins: string[]
  createdAt: number
}) => ({
  id: app.id,
  name: app.name,
  origins: app.allowedOrigins,
  created_at: app.createdAt,
})

export const consoleLoginRoute = consoleRoute({
  method: 'post',
  path: CONSOLE_LOGIN_PATH,
  summary: 'Sign in to the console with an admin token (latchkey admin create)',
  body: z.strictObject({ token: z.string().min(1).max(512) }),
  response: anything,
  handler: async ({ c, services, body }) => {
    const { limit, windowMs } = CONSOLE_LOGIN_LIMIT
    const counted = await services.limiter.hit(
      `console-login:${ipBucket(clientIp(c, services))}`,
      limit,
      windowMs,
    )
    if (!counted.allowed) throw limited('TOO_MANY_ATTEMPTS', counted.resetAt, services.now())
    const admin = await verifyAdminToken(services.db, body.token, services.now())
    if (!admin) throw new ApiError('UNAUTHORIZED', 'That is not a live admin token')
    setSessionCookie(c, services, await startConsoleSession(services.db, admin.id, services.now()))
    return { admin }
  },
})

export const consoleLogoutRoute = consoleRoute({
  method: 'post',
  path: `${CONSOLE_API}/logout`,
  summary: 'Sign out of the console',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const value = clearSessionCookie(c, services)
    if (value) await endConsoleSession(services.db, value)
    return { success: true }
  },
})

export const consoleMeRoute = consoleRoute({
  method: 'get',
  path: `${CONSOLE_API}/me`,
  summary: 'The signed-in admin',
  response: anything,
  handler: async ({ c }) => ({ admin: consoleAdminOf(c) }),
})

export const consoleAppsRoute = consoleRoute({
  method: 'get',
  path: `${CONSOLE_API}/apps`,
  summary: 'Every app',
  response: anything,
  handler: async ({ services }) => ({ apps: (await listApps(services.db)).map(appSummary) }),
})

export const consoleAppCreateRoute = consoleRoute({
  method: 'post',
  path: `${CONSOLE_API}/apps`,
  summary: 'Create an app (as `latchkey apps create`; its secret is not shown: apps secret create)',
  body: z.strictObject({
    name: z.string().trim().min(1).max(200),
    origins: z.array(z.string().min(1).max(2048)).min(1).max(50),
  }),
  response: anything,
  status: 201,
  handler: async ({ c, services, body }) => {
    const created = await createApp(services.db, body).catch(asInvalidPayload)
    await recordAdminAction(
      services.db,
      consoleAdminOf(c).id,
      { action: 'app.create', appId: created.app.id, detail: { name: created.app.name } },
      services.now(),
    )
    return { app: appSummary(created.app) }
  },
})

export const consoleAppRoute = consoleRoute({
  method: 'get',
  path: APP,
  summary: 'One app and its settings (as `latchkey apps settings ID` prints them)',
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    return { app: { ...appSummary(app), settings: app.settings } }
  },
})

export const consoleAppSettingsRoute = consoleRoute({
  method: 'post',
  path: `${APP}/settings`,
  summary:
    'Merge settings into the app (as `latchkey apps settings ID --set JSON`; null removes a key)',
  body: z.strictObject({ settings: anything }),
  response: anything,
  handler: async ({ c, services, body }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const settings = await updateAppSettings(services.db, app.id, body.settings).catch(
      asInvalidPayload,
    )
    services.apps.invalidate(app.id)
    await recordAdminAction(
      services.db,
      consoleAdminOf(c).id,
      // The keys, never their values (an OAuth or funding setting may be sensitive).
      {
        action: 'app.settings_update',
        appId: app.id,
        detail: { keys: Object.keys(body.settings) },
      },
      services.now(),
    )
    return { settings }
  },
})

/** Every console API route, in the order they are registered. */
export const CONSOLE_ROUTES: RouteDefinition[] = [
  consoleLoginRoute,
  consoleLogoutRoute,
  consoleMeRoute,
  consoleAppsRoute,
  consoleAppCreateRoute,
  consoleAppRoute,
  consoleAppSettingsRoute,
  ...CONSOLE_USER_ROUTES,
  ...CONSOLE_LOG_ROUTES,
  ...CONSOLE_SMART_WALLET_ROUTES,
  ...CONSOLE_CREDENTIAL_ROUTES,
]
