import { routes } from '@latchkey/protocol/routes'
import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { toUser, type User } from '../user.ts'

/**
 * Unlinks an external Ethereum (SIWE) or Solana (SIWS) wallet from the
 * logged-in user, who must keep one login method. Embedded wallets cannot
 * be unlinked. (Signing in and linking live in `@latchkey/core/external`.)
 */
export async function unlinkWallet(
  client: LatchkeyClient,
  { address, chainType }: { address: string; chainType: 'ethereum' | 'solana' },
): Promise<User> {
  const route = chainType === 'ethereum' ? routes.siweUnlink : routes.siwsUnlink
  const user = toUser(await client.authedRequest<UserWire>(route, { address }))
  client.session.setUser(user)
  return user
}
