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

/**
 * A fresh, migrated database for one test instance, copied from the template;
 * `drop` removes it (its connections closed first).
 */
export async function copyTemplateDatabase(
  url: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const source = await templateDatabase(url)
  const name = `latchkey_test_${randomBytes(8).toString('hex')}`
  await admin(url, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${source}`))
  return {
    url: withDatabase(url, name),
    drop: () => admin(url, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(),
  }
}
