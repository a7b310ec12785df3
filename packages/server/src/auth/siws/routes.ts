import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
import { clientIp } from '../../http/client-ip.ts'
import { defineRoute } from '../../http/route.ts'
import {
  siwsAuthenticateRequestSchema,
  siwsInitRequestSchema,
  siwsInitResponseSchema,
  siwsLinkRequestSchema,
  siwsUnlinkRequestSchema,
} from './schema.ts'
import { authenticateWithSiws, initSiws, linkSiws, unlinkSiws } from './service.ts'

export const siwsInitRoute = defineRoute({
  method: 'post',
  path: routes.siwsInit,
  summary: 'Issue a single-use Sign-In With Solana nonce and the sign-in input to sign',
  tags: ['siws'],
  auth: 'none',
  body: siwsInitRequestSchema,
  response: siwsInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: ({ c, services, app, body }) =>
    initSiws(services, app, c.req.header('origin'), body, clientIp(c, services)),
})

export const siwsAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.siwsAuthenticate,
  summary: 'Log in or sign up with a signed Sign-In With Solana message',
  tags: ['siws'],
  auth: 'none',
  startsSession: true,
  body: siwsAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ c, services, app, body }) =>
    authenticateWithSiws(services, app, c.req.header('origin'), body),
})

export const siwsLinkRoute = defineRoute({
  method: 'post',
  path: routes.siwsLink,
  summary: 'Link a Solana wallet to the signed-in user with a signed sign-in message',
  tags: ['siws'],
  auth: 'user',
  body: siwsLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    linkSiws(services, app, auth.userId, c.req.header('origin'), body),
})

export const siwsUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.siwsUnlink,
  summary: 'Unlink a Solana wallet from the signed-in user',
  tags: ['siws'],
  auth: 'user',
  body: siwsUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => unlinkSiws(services, app, auth.userId, body.address),
})

export const siwsRoutes = [siwsInitRoute, siwsAuthenticateRoute, siwsLinkRoute, siwsUnlinkRoute]
