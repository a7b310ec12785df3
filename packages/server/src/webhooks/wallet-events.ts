import type { Transaction } from 'kysely'
import type { Database } from '../db/types.ts'
import { getUserWire } from '../users/service.ts'
import type { WebhookWallet } from './events.ts'
import { enqueueWebhookEvent, subscribedEndpoints } from './outbox.ts'

/** Ethereum addresses compare without case; Solana's base58 is case-sensitive. */
const sameAddress = (a: string, b: string) =>
  a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b

/**
 * Queues `user.wallet_created`, one event per embedded wallet just stored,
 * in the transaction that stored them (wallets/service.ts). The user is read
 * once, and only when an endpoint of the app wants the event.
 */
export async function enqueueWalletsCreated(
  tx: Transaction<Database>,
  appId: string,
  userId: string,
  addresses: readonly string[],
  now: number,
): Promise<void> {
  if ((await subscribedEndpoints(tx, appId, 'user.wallet_created')).length === 0) return
  const user = await getUserWire(tx, userId)
  for (const address of addresses) {
    const wallet = user.linked_accounts.find(
      (a): a is WebhookWallet =>
        a.type === 'wallet' && a.connector_type === 'embedded' && sameAddress(a.address, address),
    )
    if (wallet) await enqueueWebhookEvent(tx, appId, 'user.wallet_created', { user, wallet }, now)
  }
}
