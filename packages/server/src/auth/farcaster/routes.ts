import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
import { clientIp } from '../../http/client-ip.ts'
import { defineRoute } from '../../http/route.ts'
import {
  FARCASTER_CHANNEL_TOKEN_HEADER,
  farcasterAuthenticateRequestSchema,
  farcasterInitRequestSchema,
  farcasterInitResponseSchema,
  farcasterLinkRequestSchema,
  farcasterStatusResponseSchema,
  farcasterUnlinkRequestSchema,
} from './schema.ts'
import {
  authenticateWithFarcaster,
  farcasterStatus,
  initFarcaster,
  linkFarcaster,
  unlinkFarcaster,
} from './service.ts'

export const farcasterInitRoute = defineRoute({
  method: 'post',
  path: routes.farcasterInit,
  summary: 'Open a Farcaster relay channel for Sign In With Farcaster (QR code / deep link)',
  tags: ['farcaster'],
  auth: 'none',
  body: farcasterInitRequestSchema,
  response: farcasterInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: ({ c, services, app }) =>
    initFarcaster(services, app, { origin: c.req.header('origin'), ip: clientIp(c, services) }),
})

export const farcasterStatusRoute = defineRoute({
  method: 'get',
  path: routes.farcasterStatus,
  summary: `The channel's state (channel token in the ${FARCASTER_CHANNEL_TOKEN_HEADER} header); polled every 2 s`,
  tags: ['farcaster'],
  auth: 'none',
  response: farcasterStatusResponseSchema,
  handler: ({ c, services, app }) =>
    farcasterStatus(services, app, c.req.header(FARCASTER_CHANNEL_TOKEN_HEADER)),
})

export const farcasterAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.farcasterAuthenticate,
  summary: 'Log in or sign up with a signed Sign In With Farcaster message',
  tags: ['farcaster'],
  auth: 'none',
  startsSession: true,
  body: farcasterAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ services, app, body }) => authenticateWithFarcaster(services, app, body),
})

export const farcasterLinkRoute = defineRoute({
  method: 'post',
  path: routes.farcasterLink,
  summary: 'Link a Farcaster account to the signed-in user',
  tags: ['farcaster'],
  auth: 'user',
  body: farcasterLinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => linkFarcaster(services, app, auth.userId, body),
})

export const farcasterUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.farcasterUnlink,
  summary: 'Unlink a Farcaster account from the signed-in user',
  tags: ['farcaster'],
  auth: 'user',
  body: farcasterUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => unlinkFarcaster(services, app, auth.userId, body.fid),
})

export const farcasterRoutes = [
  farcasterInitRoute,
  farcasterStatusRoute,
  farcasterAuthenticateRoute,
  farcasterLinkRoute,
  farcasterUnlinkRoute,
]
