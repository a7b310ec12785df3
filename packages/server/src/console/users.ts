import type { AppWallet, LookupUserRequest, UserWire } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { affected } from '../db/connect.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { getAppUser, listAppUsers, listUserWallets, lookupAppUser } from '../users/server-api.ts'

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

/** What a search text names: a user id, an email, a wallet address or a phone number. */
function lookupOf(query: string): LookupUserRequest | { id: string } {
  if (query.startsWith('did:')) return { id: query }
  if (query.includes('@')) return { email: query }
  if (/^0x[0-9a-fA-F]{40}$/.test(query) || /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(query))
    return { wallet_address: query }
  return { phone_number: query }
}

/**
 * The app's users a search text names (an exact user id, email, phone number
 * or wallet address); without one, its first 50 users.
 *
 * @example
 * await searchAppUsers(db, appId, 'ada@example.com') // [user] or []
 */
export async function searchAppUsers(db: Db, appId: string, query: string): Promise<UserWire[]> {
  const text = query.trim()
  if (!text) return (await listAppUsers(db, appId, { limit: 50 })).data
  const lookup = lookupOf(text)
  try {
    const user =
      'id' in lookup
        ? await getAppUser(db, appId, lookup.id)
        : await lookupAppUser(db, appId, lookup)
    return [user]
  } catch (error) {
    if (error instanceof ApiError && error.code === 'USER_DOES_NOT_EXIST') return []
    throw error
  }
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
