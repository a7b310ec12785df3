import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { newSecret, sha256 } from '../ids.ts'

// Console sessions (migration 022, docs/console.md "Security model"): an
// opaque 256-bit cookie value, stored only as its SHA-256, that ends 12 h
// after its last use, on sign-out, or when its admin credential is revoked.

/** The session cookie's name; its path is /console, so no other page of the server gets it. */
export const CONSOLE_COOKIE = 'latchkey_console'
export const CONSOLE_COOKIE_PATH = '/console'
/** A console session ends this long after its last request. */
export const CONSOLE_IDLE_MS = 12 * 60 * 60_000
/** `last_used_at` is written at most this often per session. */
const LAST_USED_RESOLUTION_MS = 60_000

export interface ConsoleAdmin {
  id: string
  name: string
}

/** Starts a session for the admin; the cookie value (shown only to the browser). */
export async function startConsoleSession(
  db: Kysely<Database>,
  adminId: string,
  now: number,
): Promise<string> {
  const value = newSecret()
  await db
    .insertInto('console_sessions')
    .values({ id_hash: sha256(value), admin_id: adminId, created_at: now, last_used_at: now })
    .execute()
  return value
}

/**
 * The admin of a live session, or null (unknown, idle past 12 h, or its
 * credential revoked). Records the use, to the minute; deletes an idle one.
 */
export async function readConsoleSession(
  db: Kysely<Database>,
  value: string,
  now: number,
): Promise<ConsoleAdmin | null> {
  const idHash = sha256(value)
  const row = await db
    .selectFrom('console_sessions')
    .innerJoin('admin_credentials', 'admin_credentials.id', 'console_sessions.admin_id')
    .select([
      'console_sessions.last_used_at',
      'admin_credentials.id',
      'admin_credentials.name',
      'admin_credentials.revoked_at',
    ])
    .where('console_sessions.id_hash', '=', idHash)
    .executeTakeFirst()
  if (!row) return null
  const lastUsed = Number(row.last_used_at)
  if (row.revoked_at !== null || now - lastUsed >= CONSOLE_IDLE_MS) {
    await endConsoleSession(db, value)
    return null
  }
  if (now - lastUsed >= LAST_USED_RESOLUTION_MS)
    await db
      .updateTable('console_sessions')
      .set({ last_used_at: now })
      .where('id_hash', '=', idHash)
      .execute()
  return { id: row.id, name: row.name }
}

/** Ends a session (sign-out). */
export async function endConsoleSession(db: Kysely<Database>, value: string): Promise<void> {
  await db.deleteFrom('console_sessions').where('id_hash', '=', sha256(value)).execute()
}
