import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 31: refresh tokens rotate on every use; reuse of a rotated
// one revokes the family; a short overlap window tolerates a concurrent
// double refresh (answered with one successor: refresh.overlap-idempotent.test.ts).
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const refresh = (token: string | undefined, appId?: string) =>
  t.request(routes.sessionRefresh, {
    body: token === undefined ? {} : { refresh_token: token },
    ...(appId ? { appId } : {}),
  })

describe('rotation', () => {
  it('returns new access, refresh and identity tokens on every use', async () => {
    const login = await t.login('rotate@example.com')
    const r1 = await refresh(login.refresh_token ?? '')
    expect(r1.status).toBe(200)
    expect(r1.body).toMatchObject({
      session_update_action: 'set',
      is_new_user: false,
      user: { id: login.user.id },
    })
    expect(r1.body.refresh_token).not.toBe(login.refresh_token)
    expect(typeof r1.body.token).toBe('string')
    expect(typeof r1.body.identity_token).toBe('string')
    t.clock.advance(60_000)
    const r2 = await refresh(r1.body.refresh_token)
    expect(r2.status).toBe(200)
    const me = await t.request(routes.usersMe, { token: r2.body.token })
    expect(me.status).toBe(200)
  })

  it('stores refresh tokens only hashed', async () => {
    const login = await t.login('hashed@example.com')
    const rows = await t.db.selectFrom('refresh_tokens').select('token_hash').execute()
    expect(rows.some((r) => r.token_hash === login.refresh_token)).toBe(false)
  })

  it('refuses a missing or unknown token with 401 INVALID_REFRESH_TOKEN', async () => {
    expect(await refresh(undefined)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
    expect(await refresh('not-a-token')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
  })

  it('refuses a token of another app', async () => {
    const other = await t.createApp()
    const login = await t.login('otherapp@example.com')
    expect(await refresh(login.refresh_token ?? '', other.id)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
    // …and did not burn it for its own app.
    expect((await refresh(login.refresh_token ?? '')).status).toBe(200)
  })
})

describe('reuse detection', () => {
  it('reuse of a rotated token after the overlap window revokes the whole session', async () => {
    const login = await t.login('reuse@example.com')
    const r1 = await refresh(login.refresh_token ?? '')
    expect(r1.status).toBe(200)
    t.clock.advance(10_001)
    const replay = await refresh(login.refresh_token ?? '')
    expect(replay).toMatchObject({ status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } })
    // The family is gone: the legitimate newest token and its access token stop working.
    expect(await refresh(r1.body.refresh_token)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
    expect((await t.request(routes.usersMe, { token: r1.body.token })).status).toBe(401)
  })

  it('a reused token deep in the chain also revokes', async () => {
    const login = await t.login('chain@example.com')
    let token = login.refresh_token ?? ''
    const seen = [token]
    for (let i = 0; i < 3; i++) {
      t.clock.advance(20_000)
      token = (await refresh(token)).body.refresh_token
      seen.push(token)
    }
    t.clock.advance(20_000)
    expect((await refresh(seen[1])).status).toBe(401)
    expect((await refresh(token)).status).toBe(401)
  })

  it('within the overlap window a concurrent double refresh gets one working token, no revocation', async () => {
    // The overlap answers in depth: refresh.overlap-idempotent.test.ts.
    const login = await t.login('overlap@example.com')
    const [a, b] = await Promise.all([
      refresh(login.refresh_token ?? ''),
      refresh(login.refresh_token ?? ''),
    ])
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body.refresh_token).toBe(b.body.refresh_token)
    t.clock.advance(5_000)
    expect((await refresh(a.body.refresh_token)).status).toBe(200)
    const session = await t.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', login.user.id)
      .executeTakeFirstOrThrow()
    expect(session.revoked_at).toBeNull()
  })

  it('the overlap window is configurable', async () => {
    const strict = await getTestInstance({ sessions: { refreshOverlapMs: 0 } })
    try {
      const login = await strict.login('strict@example.com')
      expect(
        (
          await strict.request(routes.sessionRefresh, {
            body: { refresh_token: login.refresh_token },
          })
        ).status,
      ).toBe(200)
      strict.clock.advance(1)
      expect(
        (
          await strict.request(routes.sessionRefresh, {
            body: { refresh_token: login.refresh_token },
          })
        ).status,
      ).toBe(401)
    } finally {
      await strict.close()
    }
  })
})
