import { z } from 'zod'
import { createApp, getAppById, listApps, updateAppSettings } from '../apps/service.ts'
import { ApiError, limited } from '../errors.ts'
import { clientIp } from '../http/client-ip.ts'
import type { Services } from '../http/context.ts'
import { defineRoute, type RouteDefinition } from '../http/route.ts'
import { isStoreUnavailable } from '../http/unavailable.ts'
import { ipBucket } from '../rate-limit/limit-per-ip.ts'
import { deleteUser } from '../users/delete.ts'
import { verifyAdminToken } from './admin-credentials.ts'
import { CONSOLE_API, CONSOLE_LOGIN_PATH, consoleAdminOf } from './guard.ts'
import { clearSessionCookie, setSessionCookie } from './session-cookie.ts'
import { endConsoleSession, startConsoleSession } from './sessions.ts'
import { consoleUserDetail, revokeUserSessions, searchAppUsers } from './users.ts'

// The console's API (docs/console.md): under /console/api, not /api/v1 — it is
// no part of the SDK surface nor of the OpenAPI document. Registered behind
// consoleGuard (origin, CSRF header, session), with `app: false`: the app a
// call is about is a path segment, looked up here, not the caller's app.

/** Sign-in attempts one client address may make per window (every attempt counts). */
export const CONSOLE_LOGIN_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const

const APP = `${CONSOLE_API}/apps/:app_id`
const USER = `${APP}/users/:user_id`
const noBody = z.strictObject({})
const anything = z.record(z.string(), z.unknown())

/**
 * A console route: tagged `console`, no bearer token (consoleGuard checks
 * the session) and no caller app (`app: false`).
 */
function consoleRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(definition: Omit<RouteDefinition<B, Q, R>, 'tags' | 'auth' | 'app'>): RouteDefinition<B, Q, R> {
  return defineRoute<B, Q, R>({ ...definition, tags: ['console'], auth: 'none', app: false })
}

/** The app of the path, or 404 APP_NOT_FOUND. */
async function appOf(services: Services, appId: string | undefined) {
  const app = appId ? await getAppById(services.db, appId) : undefined
  if (!app) throw new ApiError('APP_NOT_FOUND')
  return app
}

/** A setting or app the shared validation refuses: 400 with its own message (as the CLI prints it). */
function asInvalidPayload(error: unknown): never {
  if (error instanceof ApiError || isStoreUnavailable(error)) throw error
  throw new ApiError('INVALID_PAYLOAD', (error as Error).message)
}

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
  handler: async ({ services, body }) => {
    const created = await createApp(services.db, body).catch(asInvalidPayload)
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
    return { settings }
  },
})

export const consoleUsersRoute = consoleRoute({
  method: 'get',
  path: `${APP}/users`,
  summary: "Find the app's users by user id, email, phone number or wallet address",
  query: z.strictObject({ q: z.string().max(512).optional() }),
  response: anything,
  handler: async ({ c, services, query }) => {
    const app = await appOf(services, c.req.param('app_id'))
    return { users: await searchAppUsers(services.db, app.id, query.q ?? '') }
  },
})

export const consoleUserRoute = consoleRoute({
  method: 'get',
  path: USER,
  summary: 'One user: linked accounts, wallets (addresses only), MFA methods, sessions',
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const userId = c.req.param('user_id') ?? ''
    return { ...(await consoleUserDetail(services.db, app.id, userId, services.now())) }
  },
})

export const consoleRevokeSessionsRoute = consoleRoute({
  method: 'post',
  path: `${USER}/revoke-sessions`,
  summary: 'End every live session of the user (their tokens are refused at once)',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const userId = c.req.param('user_id') ?? ''
    return { revoked: await revokeUserSessions(services.db, app.id, userId, services.now()) }
  },
})

export const consoleDeleteUserRoute = consoleRoute({
  method: 'post',
  path: `${USER}/delete`,
  summary: 'Delete the user, as `latchkey users delete --yes` does',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const userId = c.req.param('user_id') ?? ''
    if (!(await deleteUser(services.db, { userId, appId: app.id })))
      throw new ApiError('USER_DOES_NOT_EXIST')
    return { success: true }
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
  consoleUsersRoute,
  consoleUserRoute,
  consoleRevokeSessionsRoute,
  consoleDeleteUserRoute,
]
