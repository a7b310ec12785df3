import { join } from 'node:path'
import { connectPostgres, connectSqlite, type Database } from '@latchkey/server'
import SqliteDatabase from 'better-sqlite3'
import { type Kysely, type RawBuilder, sql } from 'kysely'

// The database of a server that is killed in the middle of creating a wallet
// (wallet-create-crash.test.ts): a trigger stalls the insert of the wallet
// rows, and the test sees when the server is stuck there and when its
// transaction is gone.

const STALL = 'e2e_stall_wallet_insert'

/** Polls `check` until it holds. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The crashing server's database, as the test sees it. The stall is a
 * trigger on the insert of a wallet account: the creating transaction has
 * then written the secret row and not yet any wallet row.
 */
export interface CrashDatabase {
  /** The server's database URL: undefined for SQLite in its data dir. */
  url: string | undefined
  db: Kysely<Database>
  installStall(): Promise<void>
  /** Resolves once the server is blocked in the stall. */
  waitForStall(): Promise<void>
  /** Resolves once the database has ended the killed server's transaction. */
  waitForDeadServer(): Promise<void>
  removeStall(): Promise<void>
  close(): Promise<void>
}

/**
 * SQLite has no sleep: the trigger counts to 10^12 in a recursive CTE, which
 * never ends before the kill (and blocks the server's event loop, as a slow
 * synchronous SQLite call would). The probe sees the stall as the write lock
 * held for a whole second, which no other write of this server does.
 */
export function sqliteCrashDatabase(dataDir: string): CrashDatabase {
  const file = join(dataDir, 'latchkey.sqlite')
  const db = connectSqlite(file)
  const probe = new SqliteDatabase(file, { timeout: 0 })
  const writeLocked = () => {
    try {
      probe.exec('BEGIN IMMEDIATE')
      probe.exec('ROLLBACK')
      return false
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return true
      throw error
    }
  }
  return {
    url: undefined,
    db,
    async installStall() {
      await sql
        .raw(
          `CREATE TRIGGER ${STALL} BEFORE INSERT ON linked_accounts WHEN NEW.type = 'wallet'
           BEGIN
             SELECT count(*) FROM (
               WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000000)
               SELECT i FROM n
             );
           END`,
        )
        .execute(db)
    },
    async waitForStall() {
      let lockedSince = 0
      await until('the server to stall in the wallet insert', () => {
        if (!writeLocked()) lockedSince = 0
        else lockedSince ||= Date.now()
        return lockedSince > 0 && Date.now() - lockedSince >= 1_000
      })
    },
    // The dead process's lock went with it; it never committed, so readers see nothing of it.
    waitForDeadServer: () => until('the write lock to be released', () => !writeLocked()),
    async removeStall() {
      await sql.raw(`DROP TRIGGER ${STALL}`).execute(db)
    },
    async close() {
      probe.close()
      await db.destroy()
    },
  }
}

/**
 * Postgres: a fresh schema (as global-setup makes one), the server's
 * connections named by `application_name`, and a trigger that sleeps 4 s.
 * The stall is seen in pg_stat_activity as the server's backend waiting in
 * pg_sleep with a written transaction; once the client is gone, Postgres ends
 * that backend (when the sleep is over) and rolls its transaction back.
 */
export async function postgresCrashDatabase(baseUrl: string): Promise<CrashDatabase> {
  const schema = `e2e_crash_${Date.now().toString(36)}_${process.pid}`
  const db = connectPostgres(baseUrl, { schema, max: 2 })
  await sql.raw(`CREATE SCHEMA ${schema}`).execute(db)
  const url = new URL(baseUrl)
  url.searchParams.set('options', `-c search_path=${schema}`)
  url.searchParams.set('application_name', schema)
  const count = async (query: RawBuilder<{ n: number }>) =>
    (await query.execute(db)).rows[0]?.n ?? 0
  // The server's sessions; a backend_xid means the transaction has written (the secret row).
  const sessions = () =>
    count(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${schema}`)
  const stalledWriters = () =>
    count(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${schema}
              AND wait_event = 'PgSleep' AND backend_xid IS NOT NULL`)
  return {
    url: url.toString(),
    db,
    async installStall() {
      await sql
        .raw(
          `CREATE FUNCTION ${STALL}() RETURNS trigger AS $$
           BEGIN PERFORM pg_sleep(4); RETURN NEW; END $$ LANGUAGE plpgsql`,
        )
        .execute(db)
      await sql
        .raw(
          `CREATE TRIGGER ${STALL} BEFORE INSERT ON linked_accounts
           FOR EACH ROW WHEN (NEW.type = 'wallet') EXECUTE FUNCTION ${STALL}()`,
        )
        .execute(db)
    },
    waitForStall: () =>
      until('the server to stall in the wallet insert', async () => (await stalledWriters()) > 0),
    waitForDeadServer: () =>
      until('Postgres to end the killed server’s sessions', async () => (await sessions()) === 0),
    async removeStall() {
      await sql.raw(`DROP TRIGGER ${STALL} ON linked_accounts`).execute(db)
      await sql.raw(`DROP FUNCTION ${STALL}()`).execute(db)
    },
    async close() {
      await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(db)
      await db.destroy()
    },
  }
}
