import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { connectPostgres } from '../db/connect.ts'
import { migrateToLatest } from '../db/migrate.ts'

// Test instances on PostgreSQL (test/instance.ts) each get a database of their
// own, copied from a template that already holds every migration: running
// the 24 migrations for each instance cost about 0.6 s of the PostgreSQL
// storage pass's ~400 instances, where a copy takes a fraction of that. The
// template is made once per migration set (its name carries their digest),
// by the real migrations, so what a test sees is what `latchkey migrate`
// makes. Docs: docs/testing.md "PostgreSQL".

/** The schema the template's tables are in (and every copy's). */
export const TEMPLATE_SCHEMA = 'latchkey'

const MIGRATIONS_DIR = join(import.meta.dirname, '..', 'db', 'migrations')

/** A digest of the migrations' sources: a changed migration makes a new template. */
function migrationsDigest(): string {
  const hash = createHash('sha256')
  for (const file of readdirSync(MIGRATIONS_DIR).sort()) {
    if (file.includes('.test.')) continue
    hash.update(file).update(readFileSync(join(MIGRATIONS_DIR, file)))
  }
  return hash.digest('hex').slice(0, 12)
}

/** `url` with another database name. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.href
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/** Builds the template under a temporary name, then renames it: a half-built template is never found. */
async function buildTemplate(url: string, name: string): Promise<void> {
  const building = `${name}_b${randomBytes(4).toString('hex')}`
  await admin(url, (c) => c.query(`CREATE DATABASE ${building}`))
  const buildingUrl = withDatabase(url, building)
  await admin(buildingUrl, (c) => c.query(`CREATE SCHEMA ${TEMPLATE_SCHEMA}`))
  const db = connectPostgres(buildingUrl, { schema: TEMPLATE_SCHEMA, max: 1 })
  try {
    await migrateToLatest(db)
  } finally {
    await db.destroy()
  }
  await admin(url, async (c) => {
    try {
      await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
    } catch {
      // Another worker made it first: theirs is the same.
      await c.query(`DROP DATABASE IF EXISTS ${building}`)
      return
    }
    // Templates of older migration sets are not used again.
    const { rows } = await c.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'latchkey\\_test\\_tpl\\_%' AND datname <> $1",
      [name],
    )
    for (const { datname } of rows)
      await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {})
  })
}

let template: Promise<string> | undefined

/** The name of the migrated template database on `url`'s server, made on first use. */
function templateDatabase(url: string): Promise<string> {
  template ??= (async () => {
    const name = `latchkey_test_tpl_${migrationsDigest()}`
    const found = await admin(url, (c) =>
      c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
    )
    if (found.rowCount === 0) await buildTemplate(url, name)
    return name
  })().catch((error) => {
    template = undefined
    throw error
  })
  return template
}

/** The non-system schemas, tables and columns of the database `client` is on: what a reused database must still match. */
async function schemaShape(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ shape: string | null }>(
    `SELECT string_agg(item, ',' ORDER BY item) AS shape FROM (
       SELECT 'schema ' || nspname AS item FROM pg_namespace
        WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'
       UNION ALL
       SELECT table_schema || '.' || table_name || '.' || column_name || ':' || data_type
         FROM information_schema.columns
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
     ) AS items`,
  )
  return rows[0]?.shape ?? ''
}

let templateShape: Promise<string> | undefined

/** Databases this process's closed instances left, emptied for the next instance. */
const idle: string[] = []
/** Pooled databases are named `latchkey_test_<creation time, base 36>_<random>`. */
const POOLED = /^latchkey_test_([0-9a-z]+)_([0-9a-f]{12})$/
/** A pooled database older than this belongs to a run that has ended: the first instance of a process drops it. */
const STALE_MS = 2 * 60 * 60 * 1000

let staleDropped: Promise<void> | undefined

/** Drops pooled databases that runs which have ended left behind (a worker's pool dies with it). */
function dropStaleDatabases(url: string): Promise<void> {
  staleDropped ??= admin(url, async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'latchkey\\_test\\_%'",
    )
    for (const { datname } of rows) {
      const match = POOLED.exec(datname)
      if (!match || match[1] === 'tpl') continue
      if (Date.now() - Number.parseInt(match[1] ?? '', 36) < STALE_MS) continue
      await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {})
    }
  }).catch(() => {})
  return staleDropped
}

/**
 * Empties a closed instance's database for the next one (every table but the
 * migrations' own, identities restarted), if it still has the template's
 * shape; false when a test changed that shape (a schema or table of its
 * own, a migration run down) or something still holds a lock.
 */
async function emptyForReuse(url: string, source: string, databaseUrl: string): Promise<boolean> {
  templateShape ??= admin(withDatabase(url, source), schemaShape)
  const expected = await templateShape
  return admin(databaseUrl, async (c) => {
    if ((await schemaShape(c)) !== expected) return false
    const { rows } = await c.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT LIKE 'kysely\\_%'",
      [TEMPLATE_SCHEMA],
    )
    if (rows.length === 0) return true
    await c.query("SET lock_timeout = '2s'")
    const tables = rows.map(({ tablename }) => `${TEMPLATE_SCHEMA}."${tablename}"`).join(', ')
    await c.query(`TRUNCATE TABLE ${tables} RESTART IDENTITY CASCADE`)
    return true
  }).catch(() => false)
}

/**
 * A migrated, empty database for one test instance: one this process's
 * closed instances left (emptied: a copy and the first connections to a new
 * database cost about 0.3 s of PostgreSQL's CPU each), else a new copy of the
 * template. `drop` hands it back for the next instance, or drops it when it
 * cannot be emptied to the template's state.
 */
export async function copyTemplateDatabase(
  url: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const source = await templateDatabase(url)
  await dropStaleDatabases(url)
  let name = idle.pop()
  if (!name) {
    name = `latchkey_test_${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`
    await admin(url, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${source}`))
  }
  const database = name
  const databaseUrl = withDatabase(url, database)
  return {
    url: databaseUrl,
    drop: async () => {
      if (await emptyForReuse(url, source, databaseUrl)) idle.push(database)
      else
        await admin(url, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).then()
    },
  }
}
