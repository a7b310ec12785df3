import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import {
  SIWE_ACCOUNT_TYPE,
  SIWS_ACCOUNT_TYPE,
  WALLET_ACCOUNT_TYPE,
} from '../users/accounts-wire.ts'
import { canonicalAddress } from '../wallets/service.ts'

/** The chain of an owned wallet. */
export type OwnedWalletChain = 'ethereum' | 'solana'

/**
 * Checks that `address` is one of the user's wallets in the app — an
 * embedded wallet, or an external wallet the user linked by signing in with
 * it (SIWE, SIWS) — and answers its chain. Anything else is 404
 * WALLET_NOT_FOUND: a signed funding URL or on-ramp session names the
 * address funds go to, so a user may only make them for their own wallets
 * (docs/funding.md "Security"); the answer does not tell whether the address
 * belongs to someone else.
 *
 * @example
 * const chain = await assertOwnWallet(db, { appId, userId }, '0xAbC…')
 */
export async function assertOwnWallet(
  db: Kysely<Database>,
  owner: { appId: string; userId: string },
  address: string,
): Promise<OwnedWalletChain> {
  const row = await db
    .selectFrom('linked_accounts')
    .select('type')
    .where('app_id', '=', owner.appId)
    .where('user_id', '=', owner.userId)
    .where('type', 'in', [WALLET_ACCOUNT_TYPE, SIWE_ACCOUNT_TYPE, SIWS_ACCOUNT_TYPE])
    .where('identifier', '=', canonicalAddress(address))
    .executeTakeFirst()
  if (!row) throw new ApiError('WALLET_NOT_FOUND', 'That address is not one of your wallets')
  if (row.type === SIWE_ACCOUNT_TYPE) return 'ethereum'
  if (row.type === SIWS_ACCOUNT_TYPE) return 'solana'
  return address.startsWith('0x') ? 'ethereum' : 'solana'
}
