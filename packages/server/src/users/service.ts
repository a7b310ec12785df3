import type { LinkedAccountWire, UserWire } from '@latchkey/protocol'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, LinkedAccountsTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { newId, newUserId } from '../ids.ts'

type Db = Kysely<Database> | Transaction<Database>

const seconds = (ms: number) => Math.floor(Number(ms) / 1000)

/**
 * One stored linked account as it travels on the wire; null for a type this
 * server version has no wire shape for (rows written by a newer version).
 */
export function toLinkedAccountWire(
  row: Selectable<LinkedAccountsTable>,
): LinkedAccountWire | null {
  const data = JSON.parse(row.data) as Record<string, unknown>
  switch (row.type) {
    case 'email':
      return {
        type: 'email',
        address: typeof data.address === 'string' ? data.address : row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    default:
      return null
  }
}

export async function linkedAccountsOf(
  db: Db,
  userId: string,
): Promise<Selectable<LinkedAccountsTable>[]> {
  return db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/** The user as the API returns it; throws UNAUTHORIZED when the user is gone. */
export async function getUserWire(db: Db, userId: string): Promise<UserWire> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst()
  if (!user) throw new ApiError('UNAUTHORIZED')
  const accounts = await linkedAccountsOf(db, userId)
  return {
    id: user.id,
    created_at: seconds(user.created_at),
    linked_accounts: accounts
      .map(toLinkedAccountWire)
      .filter((a): a is LinkedAccountWire => a !== null),
    mfa_methods: [],
    has_accepted_terms: user.has_accepted_terms === 1,
    is_guest: user.is_guest === 1,
  }
}

export async function findAccount(db: Db, appId: string, type: string, identifier: string) {
  return db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('app_id', '=', appId)
    .where('type', '=', type)
    .where('identifier', '=', identifier)
    .executeTakeFirst()
}

export interface AccountInput {
  type: string
  identifier: string
  data: Record<string, unknown>
}

/** Inserts a linked account; a unique violation (taken identifier) propagates. */
export async function insertAccount(
  db: Db,
  appId: string,
  userId: string,
  account: AccountInput,
  now: number,
): Promise<void> {
  await db
    .insertInto('linked_accounts')
    .values({
      id: newId(),
      user_id: userId,
      app_id: appId,
      type: account.type,
      identifier: account.identifier,
      data: JSON.stringify(account.data),
      created_at: now,
      first_verified_at: now,
      latest_verified_at: now,
    })
    .execute()
}

/** Creates a user and its first account in one transaction. */
export async function createUserWithAccount(
  db: Kysely<Database>,
  appId: string,
  account: AccountInput,
  now: number,
): Promise<string> {
  const userId = newUserId()
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('users')
      .values({ id: userId, app_id: appId, created_at: now, has_accepted_terms: 0, is_guest: 0 })
      .execute()
    await insertAccount(tx, appId, userId, account, now)
  })
  return userId
}

export async function touchAccount(db: Db, accountId: string, now: number): Promise<void> {
  await db
    .updateTable('linked_accounts')
    .set({ latest_verified_at: now })
    .where('id', '=', accountId)
    .execute()
}
