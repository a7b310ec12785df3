import type { DelegatedActionsResponse, DelegatedActionWire } from '@latchkey/protocol'
import { type Kysely, PostgresAdapter, type Selectable, type Transaction } from 'kysely'
import { decodeCursor, newestFirstPage } from '../db/newest-first.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { newId } from '../ids.ts'
import { DAILY_WINDOW_MS } from './policy.ts'
import type { DelegatedActionsTable } from './tables.ts'

/*
 * The audit log of delegated actions (docs/delegated-actions.md "Audit log"):
 * one row per server-side signature attempt, signed or refused, written
 * before the answer. The user reads theirs (`GET
 * /embedded_wallets/delegated_actions`); the daily cap sums the value of the
 * wallet's signed and pending transactions in it. A transaction under a daily
 * cap first reserves its value as a 'pending' row ({@link reserveDailyValue}),
 * which becomes 'signed' or 'refused' once the signing ends
 * ({@link settleDelegatedAction}); a row left pending by a crash keeps
 * counting (the transaction may have gone out).
 */

/**
 * How long a delegated action is kept before the purge deletes it
 * (maintenance/purge.ts), as key releases are; far longer than the daily
 * cap's 24 hours, which reads the log.
 */
export const DELEGATED_ACTION_RETENTION_MS = 90 * 24 * 60 * 60_000

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
  outcome: 'signed' | 'refused' | 'pending'
  refusalCode: string | null
}

/** What the row keeps of a result: a hash whole, a signature's first characters. */
const resultText = (result: DelegatedActionRecord['result']) =>
  result === null ? null : 'hash' in result ? result.hash : result.signature.slice(0, RESULT_PREFIX)

const rowOf = (record: DelegatedActionRecord, now: number) => ({
  id: newId(),
  app_id: record.appId,
  user_id: record.userId,
  address: record.address,
  chain_type: record.chainType,
  method: record.method,
  caip2: record.caip2,
  to_address: record.to,
  value: record.value === null ? null : record.value.toString(),
  result: resultText(record.result),
  outcome: record.outcome,
  refusal_code: record.refusalCode,
  created_at: now,
})

export async function recordDelegatedAction(
  db: Kysely<Database>,
  record: DelegatedActionRecord,
  now: number,
): Promise<void> {
  await db.insertInto('delegated_actions').values(rowOf(record, now)).execute()
}

/** Wei the wallet's signed and pending transactions moved in the 24 hours before `now`. */
async function valueSpentToday(
  db: Kysely<Database> | Transaction<Database>,
  appId: string,
  address: string,
  now: number,
): Promise<bigint> {
  const rows = await db
    .selectFrom('delegated_actions')
    .select('value')
    .where('app_id', '=', appId)
    .where('address', '=', address)
    .where('outcome', 'in', ['signed', 'pending'])
    .where('method', 'in', ['eth_sendTransaction', 'eth_signTransaction'])
    .where('created_at', '>', now - DAILY_WINDOW_MS)
    .execute()
  return rows.reduce((sum, row) => sum + BigInt(row.value ?? '0'), 0n)
}

/**
 * Checks the daily cap and writes the 'pending' row of this attempt, as one
 * step: two requests sent together cannot both pass a cap they reach only
 * together. PostgreSQL: the wallet's delegation row is held (`FOR UPDATE`),
 * so the next reservation for this wallet waits for this one's commit and
 * then sees its row. SQLite: the insert comes first and takes the write lock
 * (one writer at a time). Over the cap, nothing is written and it throws 429
 * DELEGATION_DAILY_CAP_REACHED; a revoked delegation, WALLET_NOT_DELEGATED.
 * Returns the row's id, for {@link settleDelegatedAction}.
 */
export async function reserveDailyValue(
  db: Kysely<Database>,
  record: Omit<DelegatedActionRecord, 'outcome' | 'result' | 'refusalCode'>,
  cap: bigint,
  now: number,
): Promise<string> {
  return db.transaction().execute(async (tx) => {
    if (tx.getExecutor().adapter instanceof PostgresAdapter) {
      const held = await tx
        .selectFrom('wallet_delegations')
        .select('address')
        .where('app_id', '=', record.appId)
        .where('address', '=', record.address)
        .forUpdate()
        .executeTakeFirst()
      if (!held) throw new ApiError('WALLET_NOT_DELEGATED')
    }
    const row = rowOf({ ...record, outcome: 'pending', result: null, refusalCode: null }, now)
    await tx.insertInto('delegated_actions').values(row).execute()
    const spent = await valueSpentToday(tx, record.appId, record.address, now)
    if (spent > cap) {
      const before = spent - (record.value ?? 0n)
      throw new ApiError(
        'DELEGATION_DAILY_CAP_REACHED',
        `The wallet sent ${before} wei in the last 24 hours; the app's daily cap is ${cap} wei.`,
        { rule: 'max_value_per_day' },
      )
    }
    return row.id
  })
}

/** Ends a reserved ('pending') row as signed or refused. */
export async function settleDelegatedAction(
  db: Kysely<Database>,
  id: string,
  settled: Pick<DelegatedActionRecord, 'result' | 'refusalCode'> & {
    outcome: 'signed' | 'refused'
  },
): Promise<void> {
  await db
    .updateTable('delegated_actions')
    .set({
      outcome: settled.outcome,
      result: resultText(settled.result),
      refusal_code: settled.refusalCode,
    })
    .where('id', '=', id)
    .execute()
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
