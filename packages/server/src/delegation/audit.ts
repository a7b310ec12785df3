import type { DelegatedActionsResponse, DelegatedActionWire } from '@latchkey/protocol'
import type { Kysely, Selectable } from 'kysely'
import { decodeCursor, newestFirstPage } from '../db/newest-first.ts'
import type { Database } from '../db/types.ts'
import { newId } from '../ids.ts'
import { DAILY_WINDOW_MS } from './policy.ts'
import type { DelegatedActionsTable } from './tables.ts'

/*
 * The audit log of delegated actions (docs/delegated-actions.md "Audit log"):
 * one row per server-side signature attempt, signed or refused, written
 * before the answer. The user reads theirs (`GET
 * /embedded_wallets/delegated_actions`); the daily cap sums the value of the
 * wallet's signed transactions in it.
 */

/** Longest signature prefix kept (a signature is not secret, but the log needs no more). */
const RESULT_PREFIX = 18

export interface DelegatedActionRecord {
  appId: string
  userId: string
  address: string
  chainType: 'ethereum' | 'solana'
  method: string
  caip2: string | null
  to: string | null
  value: bigint | null
  /** A transaction hash (kept whole), or a signature (its first characters). */
  result: { hash: string } | { signature: string } | null
  outcome: 'signed' | 'refused'
  refusalCode: string | null
}

export async function recordDelegatedAction(
  db: Kysely<Database>,
  record: DelegatedActionRecord,
  now: number,
): Promise<void> {
  const result =
    record.result === null
      ? null
      : 'hash' in record.result
        ? record.result.hash
        : record.result.signature.slice(0, RESULT_PREFIX)
  await db
    .insertInto('delegated_actions')
    .values({
      id: newId(),
      app_id: record.appId,
      user_id: record.userId,
      address: record.address,
      chain_type: record.chainType,
      method: record.method,
      caip2: record.caip2,
      to_address: record.to,
      value: record.value === null ? null : record.value.toString(),
      result,
      outcome: record.outcome,
      refusal_code: record.refusalCode,
      created_at: now,
    })
    .execute()
}

/** Wei the wallet's signed transactions moved in the 24 hours before `now`. */
export async function valueSignedToday(
  db: Kysely<Database>,
  appId: string,
  address: string,
  now: number,
): Promise<bigint> {
  const rows = await db
    .selectFrom('delegated_actions')
    .select('value')
    .where('app_id', '=', appId)
    .where('address', '=', address)
    .where('outcome', '=', 'signed')
    .where('method', 'in', ['eth_sendTransaction', 'eth_signTransaction'])
    .where('created_at', '>', now - DAILY_WINDOW_MS)
    .execute()
  return rows.reduce((sum, row) => sum + BigInt(row.value ?? '0'), 0n)
}

const toWire = (row: Selectable<DelegatedActionsTable>): DelegatedActionWire => ({
  id: row.id,
  address: row.address,
  chain_type: row.chain_type,
  method: row.method,
  caip2: row.caip2,
  to: row.to_address,
  value: row.value,
  result: row.result,
  outcome: row.outcome,
  refusal_code: row.refusal_code,
  created_at: Math.floor(Number(row.created_at) / 1000),
})

/** One page of the user's delegated actions in an app, newest first (ties by id, descending). */
export async function listDelegatedActions(
  db: Kysely<Database>,
  parameters: { appId: string; userId: string; limit: number; cursor?: string | undefined },
): Promise<DelegatedActionsResponse> {
  const { appId, userId, limit } = parameters
  const after = parameters.cursor ? decodeCursor(parameters.cursor) : null
  let query = db
    .selectFrom('delegated_actions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('app_id', '=', appId)
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    )
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  return newestFirstPage(rows, limit, toWire)
}
