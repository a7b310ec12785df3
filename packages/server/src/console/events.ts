import type { Kysely } from 'kysely'
import { decodeCursor, newestFirstPage } from '../db/newest-first.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'

// The console's events view (docs/console.md "Events"): what happened in an
// app, newest first, from the rows the server writes anyway — a user signed
// up (users), a session started by a login (sessions), a wallet's key
// material released to a session (key_releases, kept 90 days). Each source is
// one range of its (app_id, created_at, id) index (migration 023); a page is
// the newest `limit` of their union, and the cursor (db/newest-first.ts) is
// the page's last (created_at, id), so every source resumes strictly after it.

export const APP_EVENT_TYPES = ['user.created', 'session.created', 'wallet.key_released'] as const
export type AppEventType = (typeof APP_EVENT_TYPES)[number]

export interface AppEvent {
  id: string
  type: AppEventType
  user_id: string
  /** Epoch ms. */
  created_at: number
  /** user.created: is_guest; wallet.key_released: kind, entropy_id (never key material). */
  detail: Record<string, unknown>
}

/** Largest page of the events view. */
export const EVENTS_PAGE_MAX = 50

type Db = Kysely<Database>
type Source = 'users' | 'sessions' | 'key_releases'
type After = { createdAt: number; id: string } | null

/** The newest `limit` rows of one source for the app, strictly after the cursor. */
function newest<T extends Source>(db: Db, table: T, appId: string, after: After, limit: number) {
  // biome-ignore lint/suspicious/noExplicitAny: the three tables share app_id, created_at, id
  const anyDb = db as Kysely<any>
  let query = anyDb.selectFrom(table).selectAll().where('app_id', '=', appId)
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    )
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute()
}

/**
 * One page of the app's events, newest first (`type`: only that kind).
 *
 * @example
 * const { data, next_cursor } = await listAppEvents(db, appId, { limit: 20 })
 */
export async function listAppEvents(
  db: Db,
  appId: string,
  options: { cursor?: string | undefined; limit?: number | undefined; type?: AppEventType } = {},
): Promise<{ data: AppEvent[]; next_cursor: string | null }> {
  const limit = Math.min(options.limit ?? EVENTS_PAGE_MAX, EVENTS_PAGE_MAX)
  const after = options.cursor ? decodeCursor(options.cursor) : null
  if (options.cursor && !after) throw new ApiError('INVALID_PAYLOAD', 'The cursor is not valid.')
  const wanted = (type: AppEventType) => !options.type || options.type === type
  const read = async (
    type: AppEventType,
    table: Source,
    detail: (row: Row) => AppEvent['detail'],
  ) =>
    wanted(type)
      ? ((await newest(db, table, appId, after, limit + 1)) as Row[]).map(
          (row): AppEvent => ({
            id: row.id,
            type,
            user_id: table === 'users' ? row.id : String(row.user_id),
            created_at: Number(row.created_at),
            detail: detail(row),
          }),
        )
      : []
  const events = (
    await Promise.all([
      read('user.created', 'users', (row) => ({ is_guest: Number(row.is_guest) === 1 })),
      read('session.created', 'sessions', () => ({})),
      read('wallet.key_released', 'key_releases', (row) => ({
        kind: row.kind,
        entropy_id: row.entropy_id,
      })),
    ])
  )
    .flat()
    .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  return newestFirstPage(events, limit, (event) => event)
}

type Row = Record<string, unknown> & { id: string; created_at: number }
