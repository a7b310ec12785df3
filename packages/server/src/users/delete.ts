import type { Kysely } from 'kysely'
import { affected } from '../db/connect.ts'
import type { Database } from '../db/types.ts'

export interface DeleteUserParameters {
  userId: string
  /** Deletes the user only if it belongs to this app (routes pass the request's app). */
  appId?: string
}

/**
 * Deletes a user and everything that is theirs, in one statement: the
 * foreign keys cascade (SQLite opens every connection with `foreign_keys =
 * ON`, db/connect.ts) to their linked accounts and passkeys, sessions and
 * their refresh tokens, wallet secrets (auth shares, recovery material),
 * key-release records, cloud-recovery and OAuth link states, passkey
 * challenges, transfer offers, and MFA factors, verifications and attempt
 * windows. Every session ends at once: requests
 * read the session row (`authenticateRequest`), refreshes the refresh-token
 * row. Returns whether a user was deleted. Pass a transaction to delete
 * along with other writes (the account transfer does).
 *
 * @example
 * await deleteUser(services.db, { userId: auth.userId, appId: app.id })
 */
export async function deleteUser(
  db: Kysely<Database>,
  { userId, appId }: DeleteUserParameters,
): Promise<boolean> {
  let query = db.deleteFrom('users').where('id', '=', userId)
  if (appId !== undefined) query = query.where('app_id', '=', appId)
  return affected(await query.executeTakeFirst()) === 1
}
