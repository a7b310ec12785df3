import { routes } from '@latchkey/protocol'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPostgresUrl } from '../db/connect.ts'
import { sha256 } from '../ids.ts'
import { waitFor } from '../test/faults.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// A refresh racing a logout (sessions/rotate.ts; on PostgreSQL one statement,
// rotate-pg.ts): the token is either left unrotated with no successor, or
// rotated with its successor written — never rotated alone — and a session
// revoked stays revoked with every token it has.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const refresh = (token: string) =>
  t.request(routes.sessionRefresh, { body: { refresh_token: token } })

/** The login token's row, and the successor row it names, if any. */
async function stateOf(token: string) {
  const row = await t.db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select(['session_id', 'rotated_at', 'replaced_by', 'sessions.revoked_at'])
    .where('token_hash', '=', sha256(token))
    .executeTakeFirstOrThrow()
  const successor = row.replaced_by
    ? await t.db
        .selectFrom('refresh_tokens')
        .select(['token_hash', 'session_id'])
        .where('token_hash', '=', row.replaced_by)
        .executeTakeFirst()
    : undefined
  const family = await t.db
    .selectFrom('refresh_tokens')
    .select('token_hash')
    .where('session_id', '=', row.session_id)
    .execute()
  return { row, successor, familySize: family.length }
}

const refused = { status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } }

it('concurrent refreshes and logouts of one session: never a token rotated without its successor', async () => {
  const logins = await Promise.all(
    Array.from({ length: 6 }, (_, i) => t.login(`race-${i}@example.com`)),
  )
  const answers = await Promise.all(
    logins.map(async (login) => {
      const [answer] = await Promise.all([
        refresh(login.refresh_token ?? ''),
        t.request(routes.sessionLogout, { token: login.token ?? '', body: {} }),
      ])
      return answer
    }),
  )
  for (const [i, login] of logins.entries()) {
    const answer = answers[i]
    const state = await stateOf(login.refresh_token ?? '')
    expect(state.row.revoked_at).not.toBeNull()
    if (answer?.status === 200) {
      // Rotated before the logout: the successor is written, in the (revoked) session.
      expect(state.row.replaced_by).toBe(sha256(answer.body.refresh_token))
      expect(state.successor?.session_id).toBe(state.row.session_id)
      expect(state.familySize).toBe(2)
    } else {
      expect(answer).toMatchObject(refused)
      expect(state.row.rotated_at).toBeNull()
      expect(state.familySize).toBe(1)
    }
    // Either way the session's tokens are dead now.
    expect(await refresh(answer?.body.refresh_token ?? login.refresh_token ?? '')).toMatchObject(
      refused,
    )
  }
})

describe.runIf(isPostgresUrl(process.env.DATABASE_URL))('on PostgreSQL, under row locks', () => {
  /**
   * Runs `hold` in a transaction on its own connection, starts a refresh of
   * `token`, waits until that refresh is blocked on a lock this transaction
   * holds, then commits; returns the refresh's answer.
   */
  async function refreshBlockedBy(token: string, hold: (tx: typeof t.db) => Promise<void>) {
    let answer: ReturnType<typeof refresh> | undefined
    await t.db.transaction().execute(async (tx) => {
      await hold(tx)
      answer = refresh(token)
      await waitFor('the refresh to wait on our lock', async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where pg_backend_pid() = any(pg_blocking_pids(pid))`.execute(tx)
        return (rows[0]?.n ?? 0) > 0 ? true : undefined
      })
    })
    return answer
  }

  it('a logout that locked the session first: the refresh is refused, the token left unrotated', async () => {
    const login = await t.login('revoked-first@example.com')
    const token = login.refresh_token ?? ''
    const { row } = await stateOf(token)
    const answer = await refreshBlockedBy(token, async (tx) => {
      await tx
        .updateTable('sessions')
        .set({ revoked_at: t.clock.now() })
        .where('id', '=', row.session_id)
        .execute()
    })
    expect(await answer).toMatchObject(refused)
    const after = await stateOf(token)
    expect(after.row.rotated_at).toBeNull()
    expect(after.familySize).toBe(1)
  })

  it('a logout while the refresh waits on its token: the session is checked after, and the token left unrotated', async () => {
    const login = await t.login('revoked-while-waiting@example.com')
    const token = login.refresh_token ?? ''
    const { row } = await stateOf(token)
    const answer = await refreshBlockedBy(token, async (tx) => {
      await sql`select 1 from refresh_tokens where token_hash = ${sha256(token)} for update`.execute(
        tx,
      )
      // Committed on another connection while the token stays locked here.
      await t.db
        .updateTable('sessions')
        .set({ revoked_at: t.clock.now() })
        .where('id', '=', row.session_id)
        .execute()
    })
    expect(await answer).toMatchObject(refused)
    const after = await stateOf(token)
    expect(after.row.rotated_at).toBeNull()
    expect(after.familySize).toBe(1)
  })

  it('a refresh that claimed the token meanwhile: the waiting one re-checks it and claims nothing', async () => {
    const login = await t.login('claimed-meanwhile@example.com')
    const token = login.refresh_token ?? ''
    const answer = await refreshBlockedBy(token, async (tx) => {
      // Another refresh's claim, uncommitted (no seal: a replay of it is refused, revoking nothing).
      await tx
        .updateTable('refresh_tokens')
        .set({ rotated_at: t.clock.now(), replaced_by: 'claimed-elsewhere', successor: null })
        .where('token_hash', '=', sha256(token))
        .execute()
    })
    expect(await answer).toMatchObject(refused)
    const after = await stateOf(token)
    expect(after.row.replaced_by).toBe('claimed-elsewhere')
    expect(after.row.revoked_at).toBeNull()
    expect(after.familySize).toBe(1)
  })
})
