import {
  listUsersQuerySchema,
  listUsersResponseSchema,
  lookupUserRequestSchema,
  routes,
  successSchema,
  userSchema,
  userWalletsResponseSchema,
} from '@latchkey/protocol'
import { z } from 'zod'
import { ApiError } from '../errors.ts'
import { defineRoute, type RouteDefinition } from '../http/route.ts'
import { deleteUser } from './delete.ts'
import { getAppUser, listAppUsers, listUserWallets, lookupAppUser } from './server-api.ts'

// The API of app backends (docs/server-api.md): `auth: 'app'`, so each route
// answers only a server holding one of the app's secrets (apps/app-secrets-auth.ts),
// and only about the app's own users. Registered after the `/users/me`
// routes (server.ts): Hono answers with the first route that matches, and
// `me` is no user id (those are `did:latchkey:…`).

const USER = ':user_id'
const noBody = z.strictObject({})

export const appUsersListRoute = defineRoute({
  method: 'get',
  path: routes.appUsers,
  summary: "The app's users, oldest first, a page at a time (app secret)",
  tags: ['app backend'],
  auth: 'app',
  query: listUsersQuerySchema,
  response: listUsersResponseSchema,
  handler: async ({ services, app, query }) => listAppUsers(services.db, app.id, query),
})

export const appUserLookupRoute = defineRoute({
  method: 'post',
  path: routes.appUserLookup,
  summary: 'Find a user by email, phone number, wallet address or linked account (app secret)',
  tags: ['app backend'],
  auth: 'app',
  body: lookupUserRequestSchema,
  response: userSchema,
  handler: async ({ services, app, body }) => lookupAppUser(services.db, app.id, body),
})

export const appUserGetRoute = defineRoute({
  method: 'get',
  path: routes.appUser(USER),
  summary: 'One user of the app by id (app secret)',
  tags: ['app backend'],
  auth: 'app',
  response: userSchema,
  handler: async ({ c, services, app }) =>
    getAppUser(services.db, app.id, c.req.param('user_id') ?? ''),
})

export const appUserWalletsRoute = defineRoute({
  method: 'get',
  path: routes.appUserWallets(USER),
  summary: "A user's embedded wallets: addresses, chains and ids, never key material (app secret)",
  tags: ['app backend'],
  auth: 'app',
  response: userWalletsResponseSchema,
  handler: async ({ c, services, app }) => ({
    data: await listUserWallets(services.db, app.id, c.req.param('user_id') ?? ''),
  }),
})

/**
 * Deletes a user of the app as `latchkey users delete` and the user's own
 * deletion do (users/delete.ts): linked accounts, embedded wallets (the
 * server's shares), sessions, which end at once. Empty body.
 */
export const appUserDeleteRoute = defineRoute({
  method: 'post',
  path: routes.appUserDelete(USER),
  summary: 'Delete a user of the app, their wallets and every session (app secret)',
  tags: ['app backend'],
  auth: 'app',
  body: noBody,
  response: successSchema,
  handler: async ({ c, services, app }) => {
    const userId = c.req.param('user_id') ?? ''
    if (!(await deleteUser(services.db, { userId, appId: app.id })))
      throw new ApiError('USER_DOES_NOT_EXIST')
    services.logger.info(`user deleted by the app's backend: ${userId} (app ${app.id})`)
    return { success: true as const }
  },
})

/** Every app-backend route, in registration order (after the `/users/me` routes). */
export const appBackendRoutes: RouteDefinition[] = [
  appUsersListRoute,
  appUserLookupRoute,
  appUserGetRoute,
  appUserWalletsRoute,
  appUserDeleteRoute,
]
