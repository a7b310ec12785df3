import { authResponseSchema, routes, successSchema, userSchema } from '@latchkey/protocol'
import { clientIp } from '../../http/client-ip.ts'
import { defineRoute } from '../../http/route.ts'
import {
  authenticateWithCode,
  linkCodeAccount,
  sendCode,
  unlinkCodeAccount,
  updateCodeAccount,
} from '../code/service.ts'
import {
  emailAuthenticateRequestSchema,
  emailInitRequestSchema,
  emailLinkRequestSchema,
  emailUnlinkRequestSchema,
  emailUpdateRequestSchema,
} from './schema.ts'
import { emailChannel } from './service.ts'

export const emailInitRoute = defineRoute({
  method: 'post',
  path: routes.emailInit,
  summary: 'Send a login code to an email address',
  tags: ['email'],
  auth: 'none',
  body: emailInitRequestSchema,
  response: successSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: async ({ c, services, app, body }) => {
    await sendCode(services, app, emailChannel, body.email, clientIp(c, services))
    return { success: true as const }
  },
})

export const emailAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.emailAuthenticate,
  summary: 'Log in or sign up with an email code',
  tags: ['email'],
  auth: 'none',
  startsSession: true,
  body: emailAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ c, services, app, body }) => {
    const input = { address: body.email, code: body.code, mode: body.mode }
    return authenticateWithCode(services, app, emailChannel, input, clientIp(c, services))
  },
})

export const emailLinkRoute = defineRoute({
  method: 'post',
  path: routes.emailLink,
  summary: 'Link an email to the signed-in user (code sent to that address)',
  tags: ['email'],
  auth: 'user',
  body: emailLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) => {
    const input = { address: body.email, code: body.code }
    return linkCodeAccount(services, app, emailChannel, auth.userId, input, clientIp(c, services))
  },
})

export const emailUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.emailUnlink,
  summary: 'Unlink an email from the signed-in user',
  tags: ['email'],
  auth: 'user',
  body: emailUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) =>
    unlinkCodeAccount(services, app, emailChannel, auth.userId, body.address),
})

export const emailUpdateRoute = defineRoute({
  method: 'post',
  path: routes.emailUpdate,
  summary: "Replace the signed-in user's email (code sent to the new address)",
  tags: ['email'],
  auth: 'user',
  body: emailUpdateRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    updateCodeAccount(services, app, emailChannel, auth.userId, body, clientIp(c, services)),
})

export const emailRoutes = [
  emailInitRoute,
  emailAuthenticateRoute,
  emailLinkRoute,
  emailUnlinkRoute,
  emailUpdateRoute,
]
