import type SqliteDatabase from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from './types.ts'

/**
 * The better-sqlite3 connection behind a Kysely instance that
 * connect.ts `connectSqlite` made, with its statement cache. better-sqlite3
 * is synchronous: the hottest paths (a refresh) run their statements on it
 * directly, in one synchronous transaction, instead of a Kysely transaction
 * that awaits between statements (its promise chain costs more than the
 * statements themselves).
 */
export interface SqliteHandle {
  readonly database: SqliteDatabase.Database
  prepare(sql: string): SqliteDatabase.Statement
}

const handles = new WeakMap<Kysely<Database>, SqliteHandle>()

export function registerSqliteHandle(db: Kysely<Database>, handle: SqliteHandle): void {
  handles.set(db, handle)
}

/** The connection of a Kysely instance made by `connectSqlite`; undefined otherwise (PostgreSQL, a transaction). */
export const sqliteHandleOf = (db: Kysely<Database>): SqliteHandle | undefined => handles.get(db)

/** Returned by {@link runSqliteTransaction} when the connection is inside another transaction. */
export const CONNECTION_BUSY: unique symbol = Symbol('sqlite connection busy')

/**
 * Runs `fn` in a transaction, synchronously: committed when it returns,
 * rolled back when it throws. While a Kysely transaction is open on the one
 * connection (it awaits between its statements), better-sqlite3 would nest
 * `fn` in it as a savepoint, so that case returns {@link CONNECTION_BUSY}
 * and the caller takes its asynchronous path, which waits its turn.
 */
export function runSqliteTransaction<T>(
  handle: SqliteHandle,
  fn: () => T,
): T | typeof CONNECTION_BUSY {
  if (handle.database.inTransaction) return CONNECTION_BUSY
  return handle.database.transaction(fn).immediate()
}
