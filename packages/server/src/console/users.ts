import type { AppWallet, UserWire } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { affected } from '../db/connect.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { resetUserMfa } from '../mfa/reset.ts'
import { getAppUser, listUserWallets } from '../users/server-api.ts'

// The console's reads and writes of an app's users (docs/console.md "Users"):
// the app-backend queries (users/server-api.ts), so the console shows what
// GET /api/v1/users/:id shows an app's backend — addresses, never a share.

type Db = Kysely<Database>

/** One session of a user as the console lists it: times only, never a token. */
export interface ConsoleUserSession {
  id: string
  /** Epoch ms. */
  created_at: number
  last_used_at: number
  expires_at: number
  revoked_at: number | null
  live: boolean
}

export interface ConsoleUserDetail {
  user: UserWire
  wallets: AppWallet[]
  sessions: ConsoleUserSession[]
}

/** One user of the app: linked accounts, MFA methods, wallets and sessions, newest session first. */
export async function consoleUserDetail(
  db: Db,
  appId: string,
  userId: string,
  now: number,
): Promise<ConsoleUserDetail> {
  const user = await getAppUser(db, appId, userId)
  const [wallets, rows] = await Promise.all([
    listUserWallets(db, appId, userId),
    db
      .selectFrom('sessions')
      .select(['id', 'created_at', 'last_used_at', 'expires_at', 'revoked_at'])
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute(),
  ])
  const sessions = rows.map((row) => {
    const revokedAt = row.revoked_at === null ? null : Number(row.revoked_at)
    const expiresAt = Number(row.expires_at)
    return {
      id: row.id,
      created_at: Number(row.created_at),
      last_used_at: Number(row.last_used_at),
      expires_at: expiresAt,
      revoked_at: revokedAt,
      live: revokedAt === null && expiresAt > now,
    }
  })
  return { user, wallets, sessions }
}

/** Ends every live session of the app's user (their access tokens are refused at once); how many. */
export async function revokeUserSessions(
  db: Db,
  appId: string,
  userId: string,
  now: number,
): Promise<number> {
  await getAppUser(db, appId, userId)
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return affected(result)
}

/**
 * Ends one live session of the app's user (its access tokens are refused at
 * once); false when it had already ended. 404 NOT_FOUND for a session
 * that is not theirs.
 */
export async function revokeUserSession(
  db: Db,
  appId: string,
  userId: string,
  sessionId: string,
  now: number,
): Promise<boolean> {
  await getAppUser(db, appId, userId)
  const session = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('app_id', '=', appId)
    .executeTakeFirst()
  if (!session) throw new ApiError('NOT_FOUND', 'The user has no such session')
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return affected(result) > 0
}

/**
 * The CLI's `users mfa-reset --yes` (mfa/reset.ts) for the app's user: every
 * MFA factor goes and every session is revoked. The methods it removed.
 */
export async function resetAppUserMfa(
  db: Db,
  appId: string,
  userId: string,
  now: number,
): Promise<string[]> {
  const { mfa_methods } = await getAppUser(db, appId, userId)
  await resetUserMfa(db, userId, now)
  return mfa_methods
}
