import type { UserWire } from '@latchkey/protocol'
import { type Kysely, sql } from 'kysely'
import { isPostgres } from '../db/dialect.ts'
import { afterInCreationOrder, decodeCursor, encodeCursor } from '../db/newest-first.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import {
  SIWE_ACCOUNT_TYPE,
  SIWS_ACCOUNT_TYPE,
  WALLET_ACCOUNT_TYPE,
} from '../users/accounts-wire.ts'
import { usersWire } from '../users/server-api.ts'

// The console's user list and search (docs/console.md "Users"): the app's
// users oldest first, 50 a page with a cursor, optionally only those whose
// user id, email, phone number or wallet address contains the search text.

type Db = Kysely<Database>

/** Users on one page of the console's list. */
export const CONSOLE_USERS_PAGE = 50

/** The account types a search looks into, besides the user id. */
const SEARCHED_TYPES = ['email', 'phone', WALLET_ACCOUNT_TYPE, SIWE_ACCOUNT_TYPE, SIWS_ACCOUNT_TYPE]

/** `text` as a LIKE pattern matching it anywhere, its wildcards (and the escape) taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * What the search text may be stored as: itself, and — for a phone number
 * typed with spaces, dashes or parentheses — without them (numbers are
 * stored as E.164, e.g. +15555550100).
 */
function variantsOf(text: string): string[] {
  const compact = text.replace(/[\s().-]/g, '')
  return /^\+?\d+$/.test(compact) && compact !== text ? [text, compact] : [text]
}

export interface ConsoleUsersPage {
  users: UserWire[]
  next_cursor: string | null
}

/**
 * One page of the app's users, oldest first; with `q`, only those whose user
 * id or email, phone number or wallet address contains it (case-insensitive;
 * `%`, `_` and `\` in it are plain characters). The search reads the app's
 * accounts through their (app_id, type, identifier) index and stops at a
 * page and one.
 *
 * @example
 * await searchAppUsers(db, appId, { q: '@example.com' }) // { users, next_cursor }
 */
export async function searchAppUsers(
  db: Db,
  appId: string,
  options: { q?: string | undefined; cursor?: string | undefined } = {},
): Promise<ConsoleUsersPage> {
  const text = (options.q ?? '').trim()
  // SQLite's LIKE ignores ASCII case; PostgreSQL's needs ILIKE.
  const like = sql.raw(isPostgres(db) ? 'ilike' : 'like')
  const matches = (column: string, pattern: string) =>
    sql<boolean>`${sql.ref(column)} ${like} ${pattern} escape '\\'`
  let query = db.selectFrom('users').selectAll().where('app_id', '=', appId)
  if (text) {
    const patterns = variantsOf(text).map(containsPattern)
    query = query.where((eb) =>
      eb.or([
        ...patterns.map((p) => matches('id', p)),
        eb(
          'id',
          'in',
          eb
            .selectFrom('linked_accounts')
            .select('user_id')
            .where('app_id', '=', appId)
            .where('type', 'in', SEARCHED_TYPES)
            .where((inner) => inner.or(patterns.map((p) => matches('identifier', p)))),
        ),
      ]),
    )
  }
  if (options.cursor) {
    const after = decodeCursor(options.cursor)
    if (!after) throw new ApiError('INVALID_PAYLOAD', 'The cursor is not valid.')
    query = query.where(afterInCreationOrder(after))
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .limit(CONSOLE_USERS_PAGE + 1)
    .execute()
  const page = rows.slice(0, CONSOLE_USERS_PAGE)
  const last = page.at(-1)
  return {
    users: await usersWire(db, page),
    next_cursor:
      rows.length > CONSOLE_USERS_PAGE && last
        ? encodeCursor({ created_at: Number(last.created_at), id: last.id })
        : null,
  }
}
