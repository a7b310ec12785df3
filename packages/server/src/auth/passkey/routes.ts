import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
import type { Context } from 'hono'
import { clientIp } from '../../http/client-ip.ts'
import type { HonoEnv, Services } from '../../http/context.ts'
import { authenticateEnclaveRequest } from '../../http/enclave-auth.ts'
import { bearerToken, defineRoute } from '../../http/route.ts'
import { requireFreshMfa } from '../../mfa/verifications.ts'
import {
  passkeyAuthenticateRequestSchema,
  passkeyInitRequestSchema,
  passkeyInitResponseSchema,
  passkeyLinkRequestSchema,
  passkeyRegisterRequestSchema,
  passkeyUnlinkRequestSchema,
} from './schema.ts'
import {
  authenticateWithPasskey,
  initPasskeyAuthenticate,
  initPasskeyLink,
  initPasskeyRegister,
  linkPasskey,
  type PasskeyCaller,
  registerWithPasskey,
  unlinkPasskey,
} from './service.ts'

/** Origin (the relying party), IP (init rate limit) and User-Agent (passkey labels). */
const callerOf = (c: Context<HonoEnv>, services: Services): PasskeyCaller => ({
  origin: c.req.header('origin'),
  ip: clientIp(c, services),
  userAgent: c.req.header('user-agent'),
})

export const passkeyRegisterInitRoute = defineRoute({
  method: 'post',
  path: routes.passkeyRegisterInit,
  summary: 'Issue a challenge and creation options to sign up with a new passkey',
  tags: ['passkey'],
  auth: 'none',
  body: passkeyInitRequestSchema,
  response: passkeyInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: ({ c, services, app }) => initPasskeyRegister(services, app, callerOf(c, services)),
})

export const passkeyRegisterRoute = defineRoute({
  method: 'post',
  path: routes.passkeyRegister,
  summary: 'Sign up with a new passkey (WebAuthn registration response)',
  tags: ['passkey'],
  auth: 'none',
  startsSession: true,
  body: passkeyRegisterRequestSchema,
  response: authResponseSchema,
  handler: ({ c, services, app, body }) =>
    registerWithPasskey(services, app, callerOf(c, services), body),
})

export const passkeyAuthenticateInitRoute = defineRoute({
  method: 'post',
  path: routes.passkeyAuthenticateInit,
  summary: 'Issue a challenge and request options to log in with a passkey',
  tags: ['passkey'],
  auth: 'none',
  body: passkeyInitRequestSchema,
  response: passkeyInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: ({ c, services, app }) => initPasskeyAuthenticate(services, app, callerOf(c, services)),
})

export const passkeyAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.passkeyAuthenticate,
  summary: 'Log in with a passkey (WebAuthn assertion)',
  tags: ['passkey'],
  auth: 'none',
  startsSession: true,
  body: passkeyAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ c, services, app, body }) =>
    authenticateWithPasskey(services, app, callerOf(c, services), body),
})

export const passkeyLinkInitRoute = defineRoute({
  method: 'post',
  path: routes.passkeyLinkInit,
  summary: 'Issue a challenge and creation options to add a passkey to the signed-in user',
  tags: ['passkey'],
  auth: 'user',
  body: passkeyInitRequestSchema,
  response: passkeyInitResponseSchema,
  handler: ({ c, services, app, auth }) =>
    initPasskeyLink(services, app, auth.userId, callerOf(c, services)),
})

export const passkeyLinkRoute = defineRoute({
  method: 'post',
  path: routes.passkeyLink,
  summary: 'Add a passkey to the signed-in user (at most 5)',
  tags: ['passkey'],
  auth: 'user',
  body: passkeyLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    linkPasskey(services, app, auth.userId, callerOf(c, services), body),
})

export const passkeyUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.passkeyUnlink,
  summary:
    'Remove a passkey from the signed-in user (one enrolled in MFA: with `remove_as_mfa`, from the enclave, with a fresh MFA verification)',
  tags: ['passkey'],
  auth: 'user',
  body: passkeyUnlinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    unlinkPasskey(services, app, auth.userId, body, async () => {
      // Taking a passkey out of MFA is a factor change: only the enclave
      // (its origin, its device key's proof), with a fresh verification.
      const enclave = await authenticateEnclaveRequest(c, services, bearerToken(c), app.id)
      await requireFreshMfa(services, enclave)
    }),
})

export const passkeyRoutes = [
  passkeyRegisterInitRoute,
  passkeyRegisterRoute,
  passkeyAuthenticateInitRoute,
  passkeyAuthenticateRoute,
  passkeyLinkInitRoute,
  passkeyLinkRoute,
  passkeyUnlinkRoute,
]
