import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { isPostgresUrl } from '../db/connect.ts'
import { CONNECTION_BUSY, runSqliteTransaction, sqliteHandleOf } from '../db/sqlite-sync.ts'
import { sha256 } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// On SQLite a refresh's first use runs as one synchronous transaction on the
// connection (sessions/rotate-sqlite.ts). While a Kysely transaction holds
// the connection between two of its statements, the refresh must not run
// inside it (better-sqlite3 would nest it as a savepoint, and the Kysely
// transaction's rollback would take the rotation with it): it takes the
// asynchronous path and waits its turn.
describe.skipIf(isPostgresUrl(process.env.DATABASE_URL))('refresh on SQLite', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await getTestInstance({ purgeIntervalMs: 0 })
  })
  afterAll(() => t.close())

  const refresh = (token: string) =>
    t.request(routes.sessionRefresh, { body: { refresh_token: token } })

  const rowOf = (token: string) =>
    t.db
      .selectFrom('refresh_tokens')
      .select(['rotated_at', 'replaced_by'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst()

  it('runs on the connection the server opened', () => {
    expect(sqliteHandleOf(t.db)).toBeDefined()
  })

  it('never runs inside a transaction Kysely holds open, and says so', async () => {
    const handle = sqliteHandleOf(t.db)
    if (!handle) throw new Error('no SQLite connection')
    let ran = false
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('users').select('id').execute()
      expect(runSqliteTransaction(handle, () => (ran = true))).toBe(CONNECTION_BUSY)
    })
    expect(ran).toBe(false)
    expect(runSqliteTransaction(handle, () => 'ran')).toBe('ran')
  })

  it('while another transaction holds the connection, waits for it and is not undone by its rollback', async () => {
    const token = (await t.login('busy-connection@example.com')).refresh_token ?? ''
    let answer: Awaited<ReturnType<typeof refresh>> | undefined
    const rolledBack = t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('users').select('id').execute()
      expect(sqliteHandleOf(t.db)?.database.inTransaction).toBe(true)
      // Started inside the open transaction; it cannot finish before it ends.
      void refresh(token).then((r) => {
        answer = r
      })
      // Let it run as far as it can: every pending callback and promise, many times over.
      for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve))
      await tx.selectFrom('sessions').select('id').execute()
      expect(answer).toBeUndefined()
      throw new Error('roll back')
    })
    await expect(rolledBack).rejects.toThrow('roll back')
    await expect.poll(() => answer?.status).toBe(200)
    const row = await rowOf(token)
    expect(row?.rotated_at).not.toBeNull()
    expect(row?.replaced_by).toBe(sha256(answer?.body.refresh_token ?? ''))
    expect(await rowOf(answer?.body.refresh_token ?? '')).toMatchObject({ rotated_at: null })
  })

  it('refreshes of one turn share a commit; a refused one among them is undone alone', async () => {
    const live = await Promise.all(
      [1, 2, 3, 4].map(async (i) => (await t.login(`batch-${i}@example.com`)).refresh_token ?? ''),
    )
    const ended = await t.login('batch-ended@example.com')
    await t.request(routes.sessionLogout, { token: ended.token ?? '', body: {} })
    const endedToken = ended.refresh_token ?? ''
    const commits = countCommits()
    // Started together: they reach the rotation in the same turn of the event loop.
    const answers = await Promise.all([...live, endedToken].map(refresh))
    expect(commits.stop()).toBeLessThan(answers.length)
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 401])
    for (const [i, token] of live.entries()) {
      expect((await rowOf(token))?.replaced_by).toBe(sha256(answers[i]?.body.refresh_token))
      expect((await refresh(answers[i]?.body.refresh_token)).status).toBe(200)
    }
    expect((await rowOf(endedToken))?.rotated_at).toBeNull()
  })

  /** Counts the transactions the connection commits until `stop()`. */
  function countCommits() {
    const database = sqliteHandleOf(t.db)?.database
    if (!database) throw new Error('no SQLite connection')
    const transaction = database.transaction.bind(database)
    let commits = 0
    const spy = vi.spyOn(database, 'transaction').mockImplementation((fn) => {
      const wrapped = transaction(fn)
      const counted = Object.assign((...args: unknown[]) => wrapped(...args), {
        immediate: (...args: unknown[]) => {
          const result = wrapped.immediate(...args)
          commits++
          return result
        },
      })
      return counted as unknown as typeof wrapped
    })
    return {
      stop() {
        spy.mockRestore()
        return commits
      },
    }
  }

  it('a user gone between login and refresh: refused, and the token left unrotated', async () => {
    const login = await t.login('gone-user@example.com')
    const token = login.refresh_token ?? ''
    // Without its user the session's foreign keys would refuse the delete; drop the user row only.
    const handle = sqliteHandleOf(t.db)
    handle?.database.pragma('foreign_keys = OFF')
    await t.db
      .deleteFrom('users')
      .where('id', '=', login.user?.id ?? '')
      .execute()
    handle?.database.pragma('foreign_keys = ON')
    expect(await refresh(token)).toMatchObject({ status: 401 })
    expect((await rowOf(token))?.rotated_at).toBeNull()
  })
})
