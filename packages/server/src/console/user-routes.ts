import type { Context } from 'hono'
import { z } from 'zod'
import { ApiError } from '../errors.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import type { RouteDefinition } from '../http/route.ts'
import { deleteUser } from '../users/delete.ts'
import { type AdminAuditRecord, recordAdminAction } from './audit.ts'
import { consoleAdminOf } from './guard.ts'
import { APP, anything, appOf, consoleRoute, cursorSchema, noBody, USER } from './route-kit.ts'
import { searchAppUsers } from './user-search.ts'
import {
  consoleUserDetail,
  resetAppUserMfa,
  revokeUserSession,
  revokeUserSessions,
} from './users.ts'

// The console's user routes (docs/console.md "Users"): list and search, one
// user, and the changes — each change writes an audit row (audit.ts).

/** The app and user a user path names (the user is looked up by the operation). */
async function target(c: Context<HonoEnv>, services: Services) {
  const app = await appOf(services, c.req.param('app_id'))
  return { appId: app.id, userId: c.req.param('user_id') ?? '' }
}

const audit = (c: Context<HonoEnv>, services: Services, record: AdminAuditRecord) =>
  recordAdminAction(services.db, consoleAdminOf(c).id, record, services.now())

export const consoleUsersRoute = consoleRoute({
  method: 'get',
  path: `${APP}/users`,
  summary: "The app's users, 50 a page; q: those whose id, email, phone or wallet contains it",
  query: z.strictObject({ q: z.string().max(512).optional(), cursor: cursorSchema.optional() }),
  response: anything,
  handler: async ({ c, services, query }) => {
    const app = await appOf(services, c.req.param('app_id'))
    return { ...(await searchAppUsers(services.db, app.id, query)) }
  },
})

export const consoleUserRoute = consoleRoute({
  method: 'get',
  path: USER,
  summary: 'One user: linked accounts, wallets (addresses only), MFA methods, sessions',
  response: anything,
  handler: async ({ c, services }) => {
    const { appId, userId } = await target(c, services)
    return { ...(await consoleUserDetail(services.db, appId, userId, services.now())) }
  },
})

export const consoleRevokeSessionsRoute = consoleRoute({
  method: 'post',
  path: `${USER}/revoke-sessions`,
  summary: 'End every live session of the user (their tokens are refused at once)',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const { appId, userId } = await target(c, services)
    const revoked = await revokeUserSessions(services.db, appId, userId, services.now())
    await audit(c, services, {
      action: 'user.sessions_revoke',
      appId,
      target: userId,
      detail: { revoked },
    })
    return { revoked }
  },
})

export const consoleRevokeSessionRoute = consoleRoute({
  method: 'post',
  path: `${USER}/sessions/:session_id/revoke`,
  summary: 'End one session of the user (its tokens are refused at once)',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const { appId, userId } = await target(c, services)
    const sessionId = c.req.param('session_id') ?? ''
    const revoked = await revokeUserSession(services.db, appId, userId, sessionId, services.now())
    await audit(c, services, {
      action: 'user.session_revoke',
      appId,
      target: userId,
      detail: { session_id: sessionId, revoked },
    })
    return { revoked }
  },
})

export const consoleMfaResetRoute = consoleRoute({
  method: 'post',
  path: `${USER}/mfa-reset`,
  summary: 'Reset the user`s MFA, as `latchkey users mfa-reset --yes` does (sessions end too)',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const { appId, userId } = await target(c, services)
    const methods = await resetAppUserMfa(services.db, appId, userId, services.now())
    await audit(c, services, {
      action: 'user.mfa_reset',
      appId,
      target: userId,
      detail: { methods },
    })
    return { methods }
  },
})

export const consoleDeleteUserRoute = consoleRoute({
  method: 'post',
  path: `${USER}/delete`,
  summary: 'Delete the user, as `latchkey users delete --yes` does',
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const { appId, userId } = await target(c, services)
    if (!(await deleteUser(services.db, { userId, appId })))
      throw new ApiError('USER_DOES_NOT_EXIST')
    await audit(c, services, { action: 'user.delete', appId, target: userId })
    return { success: true }
  },
})

export const CONSOLE_USER_ROUTES: RouteDefinition[] = [
  consoleUsersRoute,
  consoleUserRoute,
  consoleRevokeSessionsRoute,
  consoleRevokeSessionRoute,
  consoleMfaResetRoute,
  consoleDeleteUserRoute,
]
