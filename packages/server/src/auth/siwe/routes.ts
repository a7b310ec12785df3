import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
import { clientIp } from '../../http/client-ip.ts'
import { defineRoute } from '../../http/route.ts'
import {
  siweAuthenticateRequestSchema,
  siweInitRequestSchema,
  siweInitResponseSchema,
  siweLinkRequestSchema,
  siweUnlinkRequestSchema,
} from './schema.ts'
import { authenticateWithSiwe, initSiwe, linkSiwe, unlinkSiwe } from './service.ts'

export const siweInitRoute = defineRoute({
  method: 'post',
  path: routes.siweInit,
  summary: 'Issue a single-use Sign-In With Ethereum nonce for an address',
  tags: ['siwe'],
  auth: 'none',
  body: siweInitRequestSchema,
  response: siweInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: ({ c, services, app, body }) => initSiwe(services, app, body, clientIp(c, services)),
})

export const siweAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.siweAuthenticate,
  summary: 'Log in or sign up with a signed EIP-4361 (SIWE) message',
  tags: ['siwe'],
  auth: 'none',
  startsSession: true,
  body: siweAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ c, services, app, body }) =>
    authenticateWithSiwe(services, app, c.req.header('origin'), body),
})

export const siweLinkRoute = defineRoute({
  method: 'post',
  path: routes.siweLink,
  summary: 'Link an Ethereum wallet to the signed-in user with a signed EIP-4361 message',
  tags: ['siwe'],
  auth: 'user',
  body: siweLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    linkSiwe(services, app, auth.userId, c.req.header('origin'), body),
})

export const siweUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.siweUnlink,
  summary: 'Unlink an Ethereum wallet from the signed-in user',
  tags: ['siwe'],
  auth: 'user',
  body: siweUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) => unlinkSiwe(services, app, auth.userId, body.address),
})

export const siweRoutes = [siweInitRoute, siweAuthenticateRoute, siweLinkRoute, siweUnlinkRoute]
