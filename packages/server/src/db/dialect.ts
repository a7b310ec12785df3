import { type Kysely, PostgresAdapter, type Transaction } from 'kysely'
import type { Database } from './types.ts'

/** Whether `db` talks to PostgreSQL (else SQLite). */
export const isPostgres = (db: Kysely<Database> | Transaction<Database>): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter
