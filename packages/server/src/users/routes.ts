import { routes, successSchema, userSchema, usersMeResponseSchema } from '@latchkey/protocol'
import { z } from 'zod'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/route.ts'
import { signIdentityToken } from '../sessions/tokens.ts'
import { limitWalletKeyRequests } from '../wallets/limit-wallet-key-requests.ts'
import { deleteUser } from './delete.ts'
import { getUserWire } from './service.ts'

/** Accept terms and delete take no fields (an empty body or `{}`). */
const emptyBodySchema = z.strictObject({})

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
  body: emptyBodySchema,
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

/**
 * The signed-in user deletes their account (docs/security.md "Data retention
 * and access changes"): the user and everything of theirs, wallet shares
 * included, go in one statement, and every session of theirs ends with it.
 * A key route (`auth: 'enclave'`): it destroys the auth shares, so it answers
 * only the enclave's own page with the session key's proof, never a bearer
 * token alone; a user with MFA must have verified it in this session within
 * 15 minutes. It counts against the per-IP key-route budget. Empty body.
 */
export const usersDeleteRoute = defineRoute({
  method: 'post',
  path: routes.usersDelete,
  summary: 'Delete the signed-in user, their wallets and every session (enclave only)',
  tags: ['users'],
  auth: 'enclave',
  // It destroys the wallets: with MFA, only after a fresh verification (docs/mfa.md).
  mfa: true,
  body: emptyBodySchema,
  response: successSchema,
  handler: async ({ c, services, app, auth }) => {
    await limitWalletKeyRequests(c, services)
    const deleted = await deleteUser(services.db, { userId: auth.userId, appId: app.id })
    // A concurrent deletion got there first: the session was live a moment ago, so say it is gone.
    if (!deleted) throw new ApiError('UNAUTHORIZED')
    services.logger.info(`user deleted by its owner: ${auth.userId} (app ${app.id})`)
    return { success: true as const }
  },
})
