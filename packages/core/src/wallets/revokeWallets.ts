import { routes } from '@latchkey/protocol/routes'
import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'

export type RevokeWalletsReturnType = User

/**
 * Revokes the app's offline access to every delegated wallet of the user
 * (spec 03 §2 "Delegated actions"): `POST /api/v1/embedded_wallets/revoke`
 * with an empty body (spec 03 §7). The server deletes the delegated shares at
 * once; from then on the app's backend can sign with none of the user's
 * wallets. Resolves with the updated user (every wallet `delegated: false`).
 *
 * @example
 * const user = await revokeWallets(client)
 */
export async function revokeWallets(client: LatchkeyClient): Promise<RevokeWalletsReturnType> {
  const token = await client.session.getAccessToken()
  if (!token) throw new LatchkeyError('NOT_AUTHENTICATED')
  const answer = await client.http.request<{ user: UserWire } | UserWire>(
    routes.embeddedWalletsRevoke,
    { method: 'POST', token },
  )
  const updated = toUser('user' in answer ? answer.user : answer)
  client.session.setUser(updated)
  return updated
}
