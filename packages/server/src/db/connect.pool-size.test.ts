import { sql } from 'kysely'
import { expect, it } from 'vitest'
import { loadConfigFromEnv } from '../config.ts'
import { connectDatabase } from './connect.ts'

// LATCHKEY_DATABASE_POOL_SIZE caps the PostgreSQL connections one node opens
// (docs/operations.md "Sizing": max_connections ≥ nodes × pool size).
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

it('reads LATCHKEY_DATABASE_POOL_SIZE and refuses a pool of none', () => {
  expect(loadConfigFromEnv({ LATCHKEY_DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25)
  expect(loadConfigFromEnv({}).databasePoolSize).toBeUndefined()
  expect(() => loadConfigFromEnv({ LATCHKEY_DATABASE_POOL_SIZE: '0' })).toThrow(/at least 1/)
  expect(() => loadConfigFromEnv({ LATCHKEY_DATABASE_POOL_SIZE: 'many' })).toThrow(
    /LATCHKEY_DATABASE_POOL_SIZE/,
  )
})

it('never opens more PostgreSQL connections than the pool size', async () => {
  const { db } = connectDatabase(PG_URL, '.data', { poolSize: 2 })
  try {
    // Six queries at once, each holding its connection a moment: the pool queues the rest.
    const pids = await Promise.all(
      Array.from({ length: 6 }, () =>
        sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.02)`.execute(db),
      ),
    )
    expect(new Set(pids.map((r) => r.rows[0]?.pid)).size).toBeLessThanOrEqual(2)
  } finally {
    await db.destroy()
  }
})
