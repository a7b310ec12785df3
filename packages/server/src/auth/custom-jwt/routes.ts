import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
import { defineRoute } from '../../http/route.ts'
import { customJwtAuthenticateRequestSchema, customJwtLinkRequestSchema } from './schema.ts'
import { authenticateWithCustomJwt, linkCustomJwt } from './service.ts'

export const customJwtAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.customJwtAuthenticate,
  summary: "Log in or sign up with a JWT from the app's own auth system",
  tags: ['custom-jwt'],
  auth: 'none',
  startsSession: true,
  body: customJwtAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ services, app, body }) => authenticateWithCustomJwt(services, app, body),
})

export const customJwtLinkRoute = defineRoute({
  method: 'post',
  path: routes.customJwtLink,
  summary: "Link the app's own account (a JWT it issued) to the signed-in user",
  tags: ['custom-jwt'],
  auth: 'user',
  body: customJwtLinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => linkCustomJwt(services, app, auth.userId, body.token),
})

export const customJwtRoutes = [customJwtAuthenticateRoute, customJwtLinkRoute]
