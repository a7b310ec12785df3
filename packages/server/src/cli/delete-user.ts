import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { countLiveSessions } from '../sessions/live.ts'
import { deleteUser } from '../users/delete.ts'
import { WALLET_ACCOUNT_TYPE } from '../users/service.ts'

export interface DeleteUserCommandParameters {
  db: Kysely<Database>
  userId: string
  /** `--yes`: delete; without it the command only says what would go. */
  yes: boolean
  /** Epoch ms, for which sessions are still live (default `Date.now()`). */
  now?: number
  out: (line: string) => void
  err: (line: string) => void
}

/** What deleting a user takes with it. */
export interface UserDeletionSummary {
  appId: string
  /** Login methods (email, phone, OAuth, passkeys, external wallets…). */
  linkedAccounts: number
  /** Embedded wallets (their shares go with the user). */
  wallets: number
  /** Sessions not revoked nor expired: they end at once. */
  liveSessions: number
}

async function summarize(
  db: Kysely<Database>,
  userId: string,
  now: number,
): Promise<UserDeletionSummary | null> {
  const user = await db
    .selectFrom('users')
    .select('app_id')
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!user) return null
  const accounts = await db
    .selectFrom('linked_accounts')
    .select('type')
    .where('user_id', '=', userId)
    .execute()
  const liveSessions = await countLiveSessions(db, userId, now)
  const wallets = accounts.filter((a) => a.type === WALLET_ACCOUNT_TYPE).length
  return {
    appId: user.app_id,
    linkedAccounts: accounts.length - wallets,
    wallets,
    liveSessions,
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

const describeSummary = (s: UserDeletionSummary) =>
  `${plural(s.linkedAccounts, 'linked account')}, ${plural(s.wallets, 'embedded wallet')} ` +
  `(with their server-held shares and recovery material), ${plural(s.liveSessions, 'live session')}`

/**
 * `latchkey users delete USER_ID [--yes]`: without `--yes`, prints what
 * would be deleted and exits 1 asking for `--yes`; with it, deletes the user
 * as the user's own deletion does (users/delete.ts: every row of theirs,
 * every session ended) and prints what went. An unknown user is exit 1.
 * Returns the exit code.
 *
 * @example
 * await deleteUserCommand({ db, userId: 'did:latchkey:…', yes: true, out: console.log, err: console.error })
 */
export async function deleteUserCommand(parameters: DeleteUserCommandParameters): Promise<number> {
  const { db, userId, yes, out, err } = parameters
  const summary = await summarize(db, userId, parameters.now ?? Date.now())
  if (!summary) {
    err(`No user ${userId}`)
    return 1
  }
  if (!yes) {
    out(`Would delete user ${userId} of app ${summary.appId}: ${describeSummary(summary)}.`)
    err('Nothing was deleted. Run the command again with --yes to delete this user.')
    return 1
  }
  if (!(await deleteUser(db, { userId }))) {
    err(`No user ${userId}`)
    return 1
  }
  out(`Deleted user ${userId} of app ${summary.appId}: ${describeSummary(summary)}.`)
  return 0
}
