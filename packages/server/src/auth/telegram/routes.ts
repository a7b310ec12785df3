import { authResponseSchema, routes, userSchema } from '@latchkey/protocol'
import { clientIp } from '../../http/client-ip.ts'
import { defineRoute } from '../../http/route.ts'
import {
  telegramAuthenticateRequestSchema,
  telegramLinkRequestSchema,
  telegramUnlinkRequestSchema,
} from './schema.ts'
import { authenticateWithTelegram, linkTelegram, unlinkTelegram } from './service.ts'

export const telegramAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.telegramAuthenticate,
  summary: 'Log in or sign up with a Telegram Login Widget result or Mini App initData',
  tags: ['telegram'],
  auth: 'none',
  startsSession: true,
  body: telegramAuthenticateRequestSchema,
  response: authResponseSchema,
  // Login start: the captcha is verified before anything else (docs/captcha.md).
  captcha: (b) => b.captcha_token,
  handler: ({ c, services, app, body }) =>
    authenticateWithTelegram(services, app, body, clientIp(c, services)),
})

export const telegramLinkRoute = defineRoute({
  method: 'post',
  path: routes.telegramLink,
  summary: 'Link a Telegram account to the signed-in user',
  tags: ['telegram'],
  auth: 'user',
  body: telegramLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    linkTelegram(services, app, auth.userId, body, clientIp(c, services)),
})

export const telegramUnlinkRoute = defineRoute({
  method: 'post',
  path: routes.telegramUnlink,
  summary: 'Unlink a Telegram account from the signed-in user',
  tags: ['telegram'],
  auth: 'user',
  body: telegramUnlinkRequestSchema,
  response: userSchema,
  handler: ({ services, app, auth, body }) =>
    unlinkTelegram(services, app, auth.userId, String(body.telegram_user_id)),
})

export const telegramRoutes = [telegramAuthenticateRoute, telegramLinkRoute, telegramUnlinkRoute]
