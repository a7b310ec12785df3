import { routes, usersMeResponseSchema } from '@latchkey/protocol'
import { defineRoute } from '../http/route.ts'
import { signIdentityToken } from '../sessions/tokens.ts'
import { getUserWire } from './service.ts'

export const usersMeRoute = defineRoute({
  method: 'get',
  path: routes.usersMe,
  summary: 'The signed-in user and a fresh identity token',
  tags: ['users'],
  auth: 'user',
  response: usersMeResponseSchema,
  handler: async ({ services, app, auth }) => {
    const user = await getUserWire(services.db, auth.userId)
    const identity_token = await signIdentityToken(services, {
      userId: user.id,
      appId: app.id,
      linkedAccounts: user.linked_accounts,
    })
    return { user, identity_token }
  },
})
