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

interface Waiting {
  work: () => unknown
  resolve(value: unknown): void
  reject(error: unknown): void
}

const waiting = new WeakMap<SqliteHandle, Waiting[]>()

/**
 * Runs `work` synchronously in a transaction and resolves with its result
 * once committed; rejects with what it threw, having written nothing.
 * {@link CONNECTION_BUSY} when a Kysely transaction held the connection
 * (nothing ran: take the asynchronous path).
 *
 * Group commit: the work that arrives in one turn of the event loop (under
 * load, several requests are read from their sockets in one turn) runs in
 * one transaction, each piece in a savepoint of its own, committed at the end
 * of the turn. A commit's cost (writing the changed pages to the WAL, the
 * file locks) is then shared, and each piece still commits or not on its own
 * merits: one that throws rolls back to its savepoint alone. Nothing is
 * answered before the COMMIT; if the COMMIT fails, every piece rejects.
 */
export function inGroupCommit<T>(
  handle: SqliteHandle,
  work: () => T,
): Promise<T | typeof CONNECTION_BUSY> {
  return new Promise((resolve, reject) => {
    let queue = waiting.get(handle)
    if (!queue) {
      queue = []
      waiting.set(handle, queue)
    }
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
    // The first of this turn schedules the commit for the end of the turn.
    if (queue.length === 1) setImmediate(() => commitWaiting(handle))
  })
}

type Outcome = { value: unknown } | { error: unknown }

function commitWaiting(handle: SqliteHandle): void {
  const batch = waiting.get(handle)?.splice(0) ?? []
  let outcomes: Outcome[] | typeof CONNECTION_BUSY
  try {
    // Nested in the batch's transaction, better-sqlite3 makes each a savepoint.
    const piece = handle.database.transaction((work: () => unknown) => work())
    outcomes = runSqliteTransaction(handle, () =>
      batch.map(({ work }): Outcome => {
        try {
          return { value: piece(work) }
        } catch (error) {
          return { error }
        }
      }),
    )
  } catch (error) {
    // BEGIN or COMMIT failed: nothing of the batch was written.
    for (const item of batch) item.reject(error)
    return
  }
  batch.forEach((item, i) => {
    const outcome = outcomes === CONNECTION_BUSY ? { value: CONNECTION_BUSY } : outcomes[i]
    if (!outcome) item.reject(new Error('group commit lost an outcome'))
    else if ('error' in outcome) item.reject(outcome.error)
    else item.resolve(outcome.value)
  })
}
