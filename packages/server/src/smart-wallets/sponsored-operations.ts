import { type Kysely, PostgresAdapter, type Transaction } from 'kysely'
import type { Database } from '../db/types.ts'
import { newId } from '../ids.ts'
import { SmartWalletRpcError } from './rpc-errors.ts'

/*
 * The ledger of sponsorships the server's paymaster signed (migration 024),
 * which the per-user daily caps of `sponsorship_policy` read. A signature is
 * the paymaster's commitment (whoever holds it can spend the deposit until
 * it expires), so the cap counts it when it is signed, at the operation's
 * max cost: what the EntryPoint may take from the deposit at most. Asking
 * again for the same operation (app, chain, sender, nonce) replaces its row:
 * only one operation per nonce can ever run. The row keeps the highest max
 * cost signed for that nonce: an earlier signature stays valid, and the user
 * may send that operation instead of the later one.
 */

/** 24 hours: the caps count what was signed in the 24 hours before now. */
export const SPONSORSHIP_WINDOW_MS = 24 * 60 * 60_000

/**
 * How long a sponsored operation is kept before the purge deletes it
 * (maintenance/purge.ts), as delegated actions are; far longer than the
 * caps' 24 hours.
 */
export const SPONSORED_OPERATION_RETENTION_MS = 90 * 24 * 60 * 60_000

export interface SponsoredOperation {
  appId: string
  userId: string
  chainId: number
  /** Lowercase. */
  sender: string
  nonce: bigint
  /** Wei. */
  maxCost: bigint
}

/** `sponsorship_policy`'s caps; null: no limit. */
export interface DailyCaps {
  /** Operations per user, all chains together. */
  maxOperations: number | null
  /** Wei per user on the operation's chain. */
  maxGasCost: bigint | null
}

/**
 * What the user's sponsorships used in the 24 hours before `now`:
 * operations (all chains) and wei (this chain). `except`: leave out the
 * operation on this chain that a new signature would replace.
 */
export async function sponsoredToday(
  db: Kysely<Database> | Transaction<Database>,
  operation: Pick<SponsoredOperation, 'appId' | 'userId' | 'chainId'>,
  now: number,
  except?: Pick<SponsoredOperation, 'sender' | 'nonce'>,
): Promise<{ operations: number; gasCost: bigint }> {
  const rows = await db
    .selectFrom('sponsored_operations')
    .select(['chain_id', 'sender', 'nonce', 'max_cost'])
    .where('app_id', '=', operation.appId)
    .where('user_id', '=', operation.userId)
    .where('created_at', '>', now - SPONSORSHIP_WINDOW_MS)
    .execute()
  let operations = 0
  let gasCost = 0n
  for (const row of rows) {
    const sameChain = Number(row.chain_id) === operation.chainId
    if (sameChain && row.sender === except?.sender && row.nonce === except.nonce.toString())
      continue
    operations += 1
    if (sameChain) gasCost += BigInt(row.max_cost)
  }
  return { operations, gasCost }
}

/** Throws SPONSORSHIP_DAILY_CAP_REACHED when `used` is over a cap. */
export function assertUnderCaps(
  used: { operations: number; gasCost: bigint },
  caps: DailyCaps,
): void {
  if (caps.maxOperations !== null && used.operations > caps.maxOperations)
    throw new SmartWalletRpcError(
      'SPONSORSHIP_DAILY_CAP_REACHED',
      `The app sponsors at most ${caps.maxOperations} operations per user in 24 hours.`,
      { rule: 'max_operations_per_user_per_day' },
    )
  if (caps.maxGasCost !== null && used.gasCost > caps.maxGasCost)
    throw new SmartWalletRpcError(
      'SPONSORSHIP_DAILY_CAP_REACHED',
      `The app sponsors at most ${caps.maxGasCost} wei of gas per user in 24 hours on this chain.`,
      { rule: 'max_gas_cost_per_user_per_day' },
    )
}

/**
 * Checks the caps and records the operation, as one step: requests sent
 * together cannot all pass a cap they reach only together. PostgreSQL: the
 * user's row is held (`FOR UPDATE`), so the next reservation for this user
 * waits for this one's commit and then sees its row. SQLite: the write comes
 * first and takes the write lock (one writer at a time). Over a cap the
 * transaction rolls back (nothing is written) and it throws
 * SPONSORSHIP_DAILY_CAP_REACHED.
 *
 * @example
 * await reserveSponsoredOperation(db, { appId, userId, chainId: 8453, sender, nonce, maxCost }, caps, Date.now())
 */
export async function reserveSponsoredOperation(
  db: Kysely<Database>,
  operation: SponsoredOperation,
  caps: DailyCaps,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (tx.getExecutor().adapter instanceof PostgresAdapter)
      await tx
        .selectFrom('users')
        .select('id')
        .where('id', '=', operation.userId)
        .forUpdate()
        .executeTakeFirst()
    const nonce = operation.nonce.toString()
    const signedBefore = await tx
      .selectFrom('sponsored_operations')
      .select('max_cost')
      .where('app_id', '=', operation.appId)
      .where('chain_id', '=', operation.chainId)
      .where('sender', '=', operation.sender)
      .where('nonce', '=', nonce)
      .execute()
    const maxCost = signedBefore.reduce(
      (highest, row) => (BigInt(row.max_cost) > highest ? BigInt(row.max_cost) : highest),
      operation.maxCost,
    )
    await tx
      .deleteFrom('sponsored_operations')
      .where('app_id', '=', operation.appId)
      .where('chain_id', '=', operation.chainId)
      .where('sender', '=', operation.sender)
      .where('nonce', '=', nonce)
      .execute()
    await tx
      .insertInto('sponsored_operations')
      .values({
        id: newId(),
        app_id: operation.appId,
        user_id: operation.userId,
        chain_id: operation.chainId,
        sender: operation.sender,
        nonce,
        max_cost: maxCost.toString(),
        created_at: now,
      })
      .execute()
    assertUnderCaps(await sponsoredToday(tx, operation, now), caps)
  })
}
