import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import pg from 'pg'
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts'
import { usePreparedStatements } from './pg-prepared.ts'
import { registerSqliteHandle, type SqliteHandle } from './sqlite-sync.ts'
import type { Database } from './types.ts'

export type DbKind = 'postgres' | 'sqlite'

export const isPostgresUrl = (url: string | undefined): url is string =>
  !!url && /^postgres(ql)?:\/\//.test(url)

// pg returns int8 (bigint, count(*)) as strings; our timestamps are epoch ms,
// far below 2^53, so numbers are exact.
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
}

export interface PostgresConnectOptions {
  /** Sets `search_path` for every connection (tests use a schema per instance). */
  schema?: string
  max?: number
}

export function connectPostgres(
  url: string,
  options: PostgresConnectOptions = {},
): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types: pgTypes,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  // A connection that dies (PostgreSQL restarted, network cut) emits 'error'
  // on its client — idle in the pool, or checked out between two queries —
  // and an unheard 'error' would end the process. The pool drops such a
  // client on its own; the request using it fails with 503 (http/unavailable.ts).
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
    usePreparedStatements(client)
  })
  return new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) })
}

/** SQLite on a file (created with its directory) or `:memory:`. */
export function connectSqlite(file: string): Kysely<Database> {
  const database = new SqliteDatabase(file)
  database.pragma('foreign_keys = ON')
  if (file !== ':memory:') {
    database.pragma('journal_mode = WAL')
    // WAL + NORMAL: a commit survives a crash of the process; a power cut may
    // lose the last few commits (users log in again), never corrupt the file.
    database.pragma('synchronous = NORMAL')
    database.pragma('busy_timeout = 5000')
  }
  const handle = withStatementCache(database)
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) })
  registerSqliteHandle(db, handle)
  return db
}

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs as much
 * as running a small query. Statements are reused by SQL text (Kysely runs
 * each to completion synchronously, so a statement is never busy twice).
 * The same cache serves the synchronous paths (sqlite-sync.ts).
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteHandle & { close(): void } {
  const cache = new Map<string, SqliteDatabase.Statement>()
  return {
    database,
    close: () => database.close(),
    prepare(sql: string) {
      let statement = cache.get(sql)
      if (!statement) {
        // Bounded: queries with IN-lists of varying length make new texts.
        if (cache.size >= 1_000) cache.clear()
        statement = database.prepare(sql)
        cache.set(sql, statement)
      }
      return statement
    },
  }
}

/** The SQLite database file in a data folder. */
export const sqliteFile = (dataDir: string): string => join(dataDir, 'latchkey.sqlite')

/** Opens the configured database: Postgres for a postgres:// URL, else `${dataDir}/latchkey.sqlite`. */
export function connectDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  options: { poolSize?: number } = {},
): { db: Kysely<Database>; kind: DbKind } {
  if (isPostgresUrl(databaseUrl))
    return { db: connectPostgres(databaseUrl, { max: options.poolSize }), kind: 'postgres' }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  return { db: connectSqlite(sqliteFile(dataDir)), kind: 'sqlite' }
}

/** Number of rows changed by an UPDATE/DELETE, whatever the driver returns. */
export const affected = (
  result: { numUpdatedRows?: bigint; numDeletedRows?: bigint } | undefined,
): number => Number(result?.numUpdatedRows ?? result?.numDeletedRows ?? 0)

/** True for a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  )
}
