import { type SqlBool, sql } from 'kysely'

// Newest-first lists with an opaque cursor (the key-activity and delegated-
// actions logs): rows ordered by (created_at, id) descending; the cursor is
// the last row's pair, and the next page starts strictly after it.

/** The cursor of a row: base64url of `${created_at}.${id}`. */
export const encodeCursor = (row: { created_at: number; id: string }) =>
  Buffer.from(`${row.created_at}.${row.id}`).toString('base64url')

/** The (createdAt, id) a cursor names, or null for one this server did not make. */
export function decodeCursor(cursor: string): { createdAt: number; id: string } | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const dot = text.indexOf('.')
  const createdAt = Number(text.slice(0, dot))
  const id = text.slice(dot + 1)
  if (dot <= 0 || !Number.isSafeInteger(createdAt) || !id) return null
  return { createdAt, id }
}

/**
 * One page from `limit + 1` rows fetched newest first: the first `limit`
 * as wire objects, and a cursor when there was one more.
 */
export function newestFirstPage<Row extends { created_at: number | bigint; id: string }, Wire>(
  rows: Row[],
  limit: number,
  toWire: (row: Row) => Wire,
): { data: Wire[]; next_cursor: string | null } {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map(toWire),
    next_cursor:
      rows.length > limit && last
        ? encodeCursor({ created_at: Number(last.created_at), id: last.id })
        : null,
  }
}

/**
 * Rows strictly after `after` in (created_at, id) ascending order: the
 * condition of an oldest-first page that continues after a cursor.
 */
export const afterInCreationOrder = (after: { createdAt: number; id: string }) =>
  sql<SqlBool>`(created_at > ${after.createdAt} or (created_at = ${after.createdAt} and id > ${after.id}))`
