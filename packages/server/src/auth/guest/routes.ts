import { authResponseSchema, routes } from '@latchkey/protocol'
import { defineRoute } from '../../http/route.ts'
import { guestAuthenticateRequestSchema } from './schema.ts'
import { authenticateAsGuest } from './service.ts'

export const guestAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.guestAuthenticate,
  summary: 'Log in (or create) the guest user of a client-held guest credential',
  tags: ['guest'],
  auth: 'none',
  startsSession: true,
  body: guestAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ services, app, body }) => authenticateAsGuest(services, app, body.guest_credential),
})

// No link route: guests cannot link through the guest flow (spec 01 §6).
export const guestRoutes = [guestAuthenticateRoute]
