import { routes } from '@latchkey/protocol/routes'
import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { toUser, type User } from '../user.ts'

export type AcceptTermsReturnType = User

/**
 * Records that the logged-in user accepted the app's terms and privacy
 * policy (spec 02 "Terms consent", §7 "Accept terms: POST, empty body"), and
 * updates the session's user (`hasAcceptedTerms` becomes true).
 *
 * @example
 * const user = await acceptTerms(client)
 * user.hasAcceptedTerms // true
 */
export async function acceptTerms(client: LatchkeyClient): Promise<AcceptTermsReturnType> {
  const user = toUser(await client.authedRequest<UserWire>(routes.usersAcceptTerms, {}))
  client.session.setUser(user)
  return user
}
