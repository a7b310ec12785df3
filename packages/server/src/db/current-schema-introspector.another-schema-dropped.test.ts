import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, expect, it } from 'vitest'
import { connectPostgres } from './connect.ts'
import { migrateToLatest } from './migrate.ts'

// Two deployments (or two test files) in one PostgreSQL database: one
// dropping its schema while the other starts must not fail that start
// (db/current-schema-introspector.ts). Kysely's own introspector read every
// schema and failed with "schema … does not exist".
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const created: string[] = []

async function admin(query: string) {
  const client = new pg.Client({ connectionString: PG_URL })
  await client.connect()
  try {
    await client.query(query)
  } finally {
    await client.end()
  }
}

async function freshSchema() {
  const schema = `introspect_${randomBytes(6).toString('hex')}`
  await admin(`CREATE SCHEMA ${schema}`)
  created.push(schema)
  return { schema, db: connectPostgres(PG_URL, { schema, max: 2 }) }
}

afterAll(async () => {
  for (const schema of created) await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
})

it("lists the connection's own schema only, even where another schema has the same tables", async () => {
  const a = await freshSchema()
  const b = await freshSchema()
  try {
    await migrateToLatest(a.db)
    await migrateToLatest(b.db)
    const tables = await a.db.introspection.getTables()
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([a.schema]))
    const users = tables.find((t) => t.name === 'users')
    expect(users?.columns.map((c) => c.name)).toContain('id')
    expect(tables.some((t) => t.name === 'kysely_migration')).toBe(false)
    const internal = await a.db.introspection.getTables({ withInternalKyselyTables: true })
    expect(internal.some((t) => t.name === 'kysely_migration')).toBe(true)
  } finally {
    await a.db.destroy()
    await b.db.destroy()
  }
})

it('reads its tables while other schemas with the same tables are created and dropped', async () => {
  const mine = await freshSchema()
  await migrateToLatest(mine.db)
  let churning = true
  // Two other "deployments" start and go away, over and over.
  const churn = async () => {
    while (churning) {
      const other = await freshSchema()
      await migrateToLatest(other.db)
      await other.db.destroy()
      await admin(`DROP SCHEMA ${other.schema} CASCADE`)
    }
  }
  const churners = [churn(), churn()]
  try {
    // What the migrator asks at every start, many times over the churn.
    for (let i = 0; i < 150; i++) {
      const tables = await mine.db.introspection.getTables({ withInternalKyselyTables: true })
      expect(tables.some((t) => t.name === 'kysely_migration')).toBe(true)
    }
  } finally {
    churning = false
    await Promise.all(churners)
    await mine.db.destroy()
  }
}, 60_000)
