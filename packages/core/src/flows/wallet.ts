import { routes } from '@latchkey/protocol/routes'
import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { isEmbeddedWallet, toUser, type User } from '../user.ts'

/**
 * Unlinks an external Ethereum (SIWE) or Solana (SIWS) wallet from the
 * logged-in user, who must keep one login method. Embedded wallets cannot
 * be unlinked: one of the user's embedded Solana wallets is refused before
 * any request with EMBEDDED_SOLANA_WALLET_UNLINK ('Cannot unlink an embedded
 * Solana wallet', spec 03 §8), as the server would. (Signing in and linking
 * live in `@latchkey/core/external`.)
 */
export async function unlinkWallet(
  client: LatchkeyClient,
  { address, chainType }: { address: string; chainType: 'ethereum' | 'solana' },
): Promise<User> {
  if (chainType === 'solana') {
    const accounts = client.session.getState().user?.linkedAccounts ?? []
    if (
      accounts.some((a) => isEmbeddedWallet(a) && a.chainType === 'solana' && a.address === address)
    )
      throw new LatchkeyError('EMBEDDED_SOLANA_WALLET_UNLINK')
  }
  const route = chainType === 'ethereum' ? routes.siweUnlink : routes.siwsUnlink
  const user = toUser(await client.authedRequest<UserWire>(route, { address }))
  client.session.setUser(user)
  return user
}
