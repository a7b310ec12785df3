import type { Kysely, Transaction } from 'kysely'
import type { AppSettings } from '../apps/settings.ts'
import { isPostgres } from '../db/dialect.ts'
import type { SqliteHandle } from '../db/sqlite-sync.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { type AllowlistAccount, assertAllowlisted } from './allowlist.ts'
import { appSettingsOf, userCountOfApp } from './statements.ts'
import { assertUnderUserLimit } from './user-limit.ts'

/**
 * The gates a new user passes before its row is written, inside the
 * transaction that writes it (docs/access-control.md): the allowlist
 * (ALLOWLIST_REJECTED), then the app's user limit (USER_LIMIT_REACHED).
 * A refused sign-up leaves nothing behind.
 *
 * The settings are read in the transaction. With a user limit on Postgres
 * the app row is locked (`FOR NO KEY UPDATE`: other sign-ups of the app
 * wait, foreign-key inserts do not), so two concurrent sign-ups cannot both
 * see room for one more user. SQLite runs one write transaction at a time,
 * so there the count is exact already.
 *
 * @example
 * await db.transaction().execute(async (tx) => {
 *   await assertSignUpAllowed(tx, appId, { type: 'email', identifier: 'a@b.co', data: {} })
 *   // insert the user…
 * })
 */
export async function assertSignUpAllowed(
  tx: Transaction<Database>,
  appId: string,
  account: AllowlistAccount,
): Promise<void> {
  const settings = await settingsOf(tx, appId, false)
  assertAllowlisted(settings, [account])
  if (settings.max_users === null || settings.max_users === undefined) return
  const locked = isPostgres(tx) ? await settingsOf(tx, appId, true) : settings
  await assertUnderUserLimit(tx, appId, locked.max_users)
}

async function settingsOf(
  tx: Transaction<Database>,
  appId: string,
  lock: boolean,
): Promise<AppSettings> {
  let query = tx.selectFrom('apps').select('settings').where('id', '=', appId)
  if (lock) query = query.forNoKeyUpdate()
  const row = await query.executeTakeFirst()
  if (!row) throw new ApiError('APP_NOT_FOUND')
  return JSON.parse(row.settings) as AppSettings
}

/**
 * {@link assertSignUpAllowed}, synchronously on SQLite's connection, for a
 * sign-up written in db/sqlite-sync.ts `inGroupCommit`: the same gates, read
 * in the same transaction as the insert (SQLite runs one writer at a time,
 * so the count is exact).
 */
export function assertSignUpAllowedSync(
  db: Kysely<Database>,
  handle: SqliteHandle,
  appId: string,
  account: AllowlistAccount,
): void {
  const row = appSettingsOf.firstSync(db, handle, { appId })
  if (!row) throw new ApiError('APP_NOT_FOUND')
  const settings = JSON.parse(row.settings) as AppSettings
  assertAllowlisted(settings, [account])
  const maxUsers = settings.max_users
  if (maxUsers === null || maxUsers === undefined) return
  const count = userCountOfApp.firstSync(db, handle, { appId })
  if (Number(count?.n ?? 0) >= maxUsers) throw new ApiError('USER_LIMIT_REACHED')
}
