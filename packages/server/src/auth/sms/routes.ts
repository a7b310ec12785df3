import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
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
  smsAuthenticateRequestSchema,
  smsInitRequestSchema,
  smsInitResponseSchema,
  smsLinkRequestSchema,
  smsUnlinkRequestSchema,
  smsUpdateRequestSchema,
} from './schema.ts'
import { smsChannel } from './service.ts'

export const smsInitRoute = defineRoute({
  method: 'post',
  path: routes.smsInit,
  summary: 'Send a login code by SMS, or WhatsApp when the app enables it',
  tags: ['sms'],
  auth: 'none',
  body: smsInitRequestSchema,
  response: smsInitResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.token,
  handler: async ({ c, services, app, body }) => ({
    success: true as const,
    channel: await sendCode(services, app, smsChannel, body.phoneNumber, clientIp(c, services)),
  }),
})

export const smsAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.smsAuthenticate,
  summary: 'Log in or sign up with a phone code',
  tags: ['sms'],
  auth: 'none',
  startsSession: true,
  body: smsAuthenticateRequestSchema,
  response: authResponseSchema,
  handler: ({ c, services, app, body }) => {
    const input = { address: body.phoneNumber, code: body.code, mode: body.mode }
    return authenticateWithCode(services, app, smsChannel, input, clientIp(c, services))
  },
})

export const smsLinkRoute = defineRoute({
  method: 'post',
  path: routes.smsLink,
  summary: 'Link a phone number to the signed-in user (code sent to that number)',
  tags: ['sms'],
  auth: 'user',
  body: smsLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) => {
    const input = { address: body.phoneNumber, code: body.code }
    return linkCodeAccount(services, app, smsChannel, auth.userId, input, clientIp(c, services))
  },
})

export const smsUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.smsUnlink,
  summary: 'Unlink a phone number from the signed-in user',
  tags: ['sms'],
  auth: 'user',
  body: smsUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) =>
    unlinkCodeAccount(services, app, smsChannel, auth.userId, body.phoneNumber),
})

export const smsUpdateRoute = defineRoute({
  method: 'post',
  path: routes.smsUpdate,
  summary: "Replace the signed-in user's phone number (code sent to the new number)",
  tags: ['sms'],
  auth: 'user',
  body: smsUpdateRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) => {
    const input = {
      oldAddress: body.old_phone_number,
      newAddress: body.new_phone_number,
      code: body.code,
    }
    return updateCodeAccount(services, app, smsChannel, auth.userId, input, clientIp(c, services))
  },
})

export const smsRoutes = [
  smsInitRoute,
  smsAuthenticateRoute,
  smsLinkRoute,
  smsUnlinkRoute,
  smsUpdateRoute,
]
