import { routes, userSchema } from '@latchkey/protocol'
import { clientIp } from '../../http/client-ip.ts'
import { bearerToken, defineRoute } from '../../http/route.ts'
import { authenticateRequest } from '../../sessions/service.ts'
import {
  oauthAuthenticateRequestSchema,
  oauthAuthResponseSchema,
  oauthInitRequestSchema,
  oauthInitResponseSchema,
  oauthLinkRequestSchema,
  oauthUnlinkRequestSchema,
} from './schema.ts'
import { authenticateWithOAuth, initOAuth, linkOAuth, unlinkOAuth } from './service.ts'

export const oauthInitRoute = defineRoute({
  method: 'post',
  path: routes.oauthInit,
  summary:
    "Start an OAuth login (or, with intent 'link' and a bearer token, a link): the provider URL",
  tags: ['oauth'],
  // A login needs no session; a link authenticates the bearer token below.
  auth: 'none',
  body: oauthInitRequestSchema,
  response: oauthInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  // A link start needs none: the handler authenticates the signed-in user instead
  // (spec 01 §2: the captcha is for unauthenticated visitors).
  captcha: (b) => (b.intent === 'link' ? false : b.token),
  handler: async ({ c, services, app, body }) => {
    const userId =
      body.intent === 'link'
        ? (await authenticateRequest(services, bearerToken(c), app.id)).userId
        : null
    return initOAuth(services, app, { userId, ip: clientIp(c, services) }, body)
  },
})

export const oauthAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.oauthAuthenticate,
  summary:
    "Log in or sign up with a provider's authorization code (PKCE verifier, single-use state)",
  tags: ['oauth'],
  auth: 'none',
  startsSession: true,
  body: oauthAuthenticateRequestSchema,
  response: oauthAuthResponseSchema,
  handler: ({ services, app, body }) => authenticateWithOAuth(services, app, body),
})

export const oauthLinkRoute = defineRoute({
  method: 'post',
  path: routes.oauthLink,
  summary: 'Link a provider account to the signed-in user (one per provider)',
  tags: ['oauth'],
  auth: 'user',
  body: oauthLinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => linkOAuth(services, app, auth.userId, body),
})

export const oauthUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.oauthUnlink,
  summary: 'Unlink a provider account from the signed-in user',
  tags: ['oauth'],
  auth: 'user',
  body: oauthUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => unlinkOAuth(services, app, auth.userId, body),
})

export const oauthRoutes = [
  oauthInitRoute,
  oauthAuthenticateRoute,
  oauthLinkRoute,
  oauthUnlinkRoute,
]
