import { routes } from '@latchkey/protocol/routes'
import type { UsersMeResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { toUser } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'

/**
 * Reads the user's wallets from the server again (`GET /api/v1/users/me`)
 * and shows the answer in the session, so everything that lists wallets
 * (`useWallets()`) has the server's current list. Spec 01 §4: after a login
 * with nothing more to do, wallets are refreshed before the modal closes.
 * Resolves to the user's embedded wallets.
 *
 * @example
 * const wallets = await refreshWallets(client)
 */
export async function refreshWallets(client: LatchkeyClient): Promise<EmbeddedWalletAccount[]> {
  const { user } = await client.authedRequest<UsersMeResponse>(routes.usersMe)
  const fresh = toUser(user)
  client.session.setUser(fresh)
  return embeddedWallets(fresh)
}
