import {
  authResponseSchema,
  logoutRequestSchema,
  refreshRequestSchema,
  routes,
  successSchema,
} from '@latchkey/protocol'
import { z } from 'zod'
import { ApiError } from '../errors.ts'
import { bearerToken, defineRoute } from '../http/route.ts'
import { sha256 } from '../ids.ts'
import { rotateRefreshToken } from './rotate.ts'
import { buildAuthResponse, revokeSession } from './service.ts'
import { verifyOwnAccessToken } from './tokens.ts'

export const refreshRoute = defineRoute({
  method: 'post',
  path: routes.sessionRefresh,
  summary: 'Rotate the refresh token and issue new access and identity tokens',
  tags: ['sessions'],
  auth: 'none',
  body: refreshRequestSchema,
  response: authResponseSchema,
  handler: async ({ services, body, app }) => {
    const rotated = await rotateRefreshToken(services, app.id, body.refresh_token)
    return buildAuthResponse(services, { appId: app.id, ...rotated, isNewUser: false })
  },
})

export const logoutRoute = defineRoute({
  method: 'post',
  path: routes.sessionLogout,
  summary: 'End the session of the bearer token and/or refresh token',
  tags: ['sessions'],
  auth: 'none',
  body: logoutRequestSchema,
  response: successSchema,
  handler: async ({ c, services, body, app }) => {
    const sessions = new Set<string>()
    const token = bearerToken(c)
    if (token) {
      try {
        sessions.add((await verifyOwnAccessToken(services, token, app.id)).sid)
      } catch {
        // An expired access token still names no session we trust; the refresh token may.
      }
    }
    if (body.refresh_token) {
      const row = await services.db
        .selectFrom('refresh_tokens')
        .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
        .select(['sessions.id', 'sessions.app_id'])
        .where('refresh_tokens.token_hash', '=', sha256(body.refresh_token))
        .executeTakeFirst()
      if (row && row.app_id === app.id) sessions.add(row.id)
    }
    if (sessions.size === 0 && !token && !body.refresh_token) throw new ApiError('UNAUTHORIZED')
    for (const id of sessions) await revokeSession(services, id)
    return { success: true as const }
  },
})

export const jwksSchema = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      crv: z.string(),
      x: z.string(),
      y: z.string(),
      kid: z.string(),
      alg: z.literal('ES256'),
      use: z.literal('sig'),
    }),
  ),
})

export const appJwksRoute = defineRoute({
  method: 'get',
  path: routes.jwks(':app_id'),
  summary: 'Public keys that verify access and identity tokens',
  tags: ['sessions'],
  auth: 'none',
  app: false,
  response: jwksSchema,
  handler: async ({ services }) => services.keys.jwks(),
})

export const wellKnownJwksRoute = defineRoute({
  method: 'get',
  path: '/.well-known/jwks.json',
  summary: 'Public keys that verify access and identity tokens',
  tags: ['sessions'],
  auth: 'none',
  app: false,
  response: jwksSchema,
  handler: async ({ services }) => services.keys.jwks(),
})
