import { routes, userSchema, usersMeResponseSchema } from '@latchkey/protocol'
import { z } from 'zod'
import { defineRoute } from '../http/route.ts'
import { signIdentityToken } from '../sessions/tokens.ts'
import { getUserWire } from './service.ts'

/** Accept terms takes no fields (an empty body or `{}`). */
const acceptTermsRequestSchema = z.strictObject({})

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

/**
 * Records that the signed-in user accepted the app's terms (spec 02 "Terms
 * consent", §7: POST, empty body). Idempotent: accepting again changes
 * nothing. Answers the user, `has_accepted_terms: true`.
 */
export const usersAcceptTermsRoute = defineRoute({
  method: 'post',
  path: routes.usersAcceptTerms,
  summary: "Record the signed-in user's acceptance of the app's terms",
  tags: ['users'],
  auth: 'user',
  body: acceptTermsRequestSchema,
  response: userSchema,
  handler: async ({ services, app, auth }) => {
    await services.db
      .updateTable('users')
      .set({ has_accepted_terms: 1 })
      .where('id', '=', auth.userId)
      .where('app_id', '=', app.id)
      .where('has_accepted_terms', '=', 0)
      .execute()
    return getUserWire(services.db, auth.userId)
  },
})
