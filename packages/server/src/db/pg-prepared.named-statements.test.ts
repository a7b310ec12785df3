import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { connectPostgres } from './connect.ts'
import { precompile } from './precompiled.ts'

// A precompiled statement runs on PostgreSQL as a named prepared statement
// (db/pg-prepared.ts): parsed once per connection, not on every refresh.
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

const plusOne = precompile<{ n: number }>()((db, param) =>
  db.selectNoFrom(sql<number>`${param('n')}::int + 1`.as('m')),
)

it('hot statements are named prepared statements on PostgreSQL; other queries are not', async () => {
  const db = connectPostgres(PG_URL, { max: 1 })
  try {
    expect((await plusOne.first(db, { n: 1 }))?.m).toBe(2)
    expect((await plusOne.first(db, { n: 41 }))?.m).toBe(42)
    // One connection (max 1): the session that prepared it is the one asked.
    const { rows } = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements`.execute(db)
    const named = rows.filter((row) => row.name.startsWith('latchkey_'))
    expect(named).toHaveLength(1)
    expect(named[0]?.statement).toContain('+ 1')
    // The builder's own queries (this one included) stay unnamed.
    expect(rows.some((row) => row.statement.includes('pg_prepared_statements'))).toBe(false)
  } finally {
    await db.destroy()
  }
})
