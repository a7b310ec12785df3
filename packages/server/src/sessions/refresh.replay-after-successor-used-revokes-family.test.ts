import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 31 (reuse detection): a rotated refresh token presented again
// once its successor has itself been used — even inside the overlap window —
// or after the window, revokes the whole family: every refresh token and
// every access token of the session is refused from then on.
const OVERLAP_MS = 10_000
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const refresh = (token: string) =>
  t.request(routes.sessionRefresh, { body: { refresh_token: token } })
const refused = { status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } }
const me = async (accessToken: string) =>
  (await t.request(routes.usersMe, { token: accessToken })).status

/** A session with three generations: login (t0) → t1 → t2, and every access token issued. */
async function chain(email: string, gapMs: number) {
  const login = await t.login(email)
  const t0 = login.refresh_token ?? ''
  const r1 = await refresh(t0)
  t.clock.advance(gapMs)
  const r2 = await refresh(r1.body.refresh_token)
  expect([r1.status, r2.status]).toEqual([200, 200])
  return {
    userId: login.user.id,
    refreshTokens: [t0, r1.body.refresh_token as string, r2.body.refresh_token as string],
    accessTokens: [login.token ?? '', r1.body.token as string, r2.body.token as string],
  }
}

async function expectFamilyRevoked(family: Awaited<ReturnType<typeof chain>>) {
  for (const token of family.refreshTokens) expect(await refresh(token)).toMatchObject(refused)
  for (const token of family.accessTokens) expect(await me(token)).toBe(401)
  const session = await t.db
    .selectFrom('sessions')
    .select('revoked_at')
    .where('user_id', '=', family.userId)
    .executeTakeFirstOrThrow()
  expect(session.revoked_at).not.toBeNull()
}

it('a replay inside the window after the successor was used revokes the family', async () => {
  // t1 is used 1 s after t0 was rotated: t0's window is still open.
  const family = await chain('used-successor@example.com', 1_000)
  t.clock.advance(1_000)
  expect(await refresh(family.refreshTokens[0] ?? '')).toMatchObject(refused)
  await expectFamilyRevoked(family)
})

it('a replay after the window revokes the family (the newest token included)', async () => {
  const login = await t.login('after-window@example.com')
  const t0 = login.refresh_token ?? ''
  const r1 = await refresh(t0)
  t.clock.advance(OVERLAP_MS + 1)
  expect(await refresh(t0)).toMatchObject(refused)
  await expectFamilyRevoked({
    userId: login.user.id,
    refreshTokens: [t0, r1.body.refresh_token],
    accessTokens: [login.token ?? '', r1.body.token],
  })
})

it('a replay of a middle generation whose successor was used revokes too', async () => {
  const family = await chain('middle@example.com', 60_000)
  // t2 is used 1 s after t1 was rotated; t1 comes back 1 s later, inside its window.
  t.clock.advance(1_000)
  const r3 = await refresh(family.refreshTokens[2] ?? '')
  expect(r3.status).toBe(200)
  family.refreshTokens.push(r3.body.refresh_token)
  family.accessTokens.push(r3.body.token)
  t.clock.advance(1_000)
  expect(await refresh(family.refreshTokens[1] ?? '')).toMatchObject(refused)
  await expectFamilyRevoked(family)
})

it('concurrent replays after the successor was used: all refused, family revoked', async () => {
  const family = await chain('burst-replay@example.com', 1_000)
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => refresh(family.refreshTokens[0] ?? '')),
  )
  for (const answer of answers) expect(answer).toMatchObject(refused)
  await expectFamilyRevoked(family)
})

it('a refresh racing a replay never leaves two live tokens', async () => {
  // t1 is used while t0 (rotated 1 s ago) is replayed: whichever lands first,
  // either both answers carry the one successor t2, or the family is revoked.
  const login = await t.login('race@example.com')
  const t0 = login.refresh_token ?? ''
  const t1 = (await refresh(t0)).body.refresh_token as string
  t.clock.advance(1_000)
  const [use, replay] = await Promise.all([refresh(t1), refresh(t0)])
  const live = new Set(
    [use, replay].filter((r) => r.status === 200).map((r) => r.body.refresh_token as string),
  )
  // The replay of t0 may answer t1 (the successor was not used yet when it looked).
  live.delete(t1)
  expect(live.size).toBeLessThanOrEqual(1)
  const session = await t.db
    .selectFrom('sessions')
    .select('revoked_at')
    .where('user_id', '=', login.user.id)
    .executeTakeFirstOrThrow()
  if (session.revoked_at === null) {
    // The replay answered t1; t1 presented again inside its window leads to the same t2.
    expect(use.status).toBe(200)
    expect((await refresh(t1)).body.refresh_token).toBe(use.body.refresh_token)
  }
})

it('with no window at all, any replay revokes', async () => {
  const strict = await getTestInstance({ sessions: { refreshOverlapMs: 0 } })
  try {
    const login = await strict.login('strict@example.com')
    const send = (token: string) =>
      strict.request(routes.sessionRefresh, { body: { refresh_token: token } })
    const next = await send(login.refresh_token ?? '')
    strict.clock.advance(1)
    expect(await send(login.refresh_token ?? '')).toMatchObject(refused)
    expect(await send(next.body.refresh_token)).toMatchObject(refused)
  } finally {
    await strict.close()
  }
})
