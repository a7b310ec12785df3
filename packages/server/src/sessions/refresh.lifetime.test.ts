import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 32: refresh tokens have an absolute (30 d) and an idle (7 d) lifetime.
const DAY = 24 * 60 * 60_000
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const refresh = (token: string) =>
  t.request(routes.sessionRefresh, { body: { refresh_token: token } })

it('a session unused for 7 days is refused', async () => {
  const login = await t.login('idle@example.com')
  t.clock.advance(7 * DAY - 60_000)
  const ok = await refresh(login.refresh_token ?? '')
  expect(ok.status).toBe(200)
  t.clock.advance(7 * DAY)
  expect(await refresh(ok.body.refresh_token)).toMatchObject({
    status: 401,
    body: { code: 'INVALID_REFRESH_TOKEN' },
  })
})

it('a session ends 30 days after login even when used every day', async () => {
  const login = await t.login('absolute@example.com')
  let token = login.refresh_token ?? ''
  for (let day = 1; day < 30; day++) {
    t.clock.advance(DAY)
    const res = await refresh(token)
    expect(res.status).toBe(200)
    token = res.body.refresh_token
  }
  t.clock.advance(DAY)
  expect(await refresh(token)).toMatchObject({
    status: 401,
    body: { code: 'INVALID_REFRESH_TOKEN' },
  })
})

it('access tokens expire after an hour', async () => {
  const login = await t.login('access@example.com')
  t.clock.advance(59 * 60_000)
  expect((await t.request(routes.usersMe, { token: login.token ?? '' })).status).toBe(200)
  t.clock.advance(2 * 60_000)
  expect((await t.request(routes.usersMe, { token: login.token ?? '' })).body.code).toBe(
    'UNAUTHORIZED',
  )
})

it('lifetimes are configurable', async () => {
  const short = await getTestInstance({
    sessions: { idleLifetimeMs: 60_000, absoluteLifetimeMs: 120_000 },
  })
  try {
    const login = await short.login('short@example.com') // advances 31 s
    short.clock.advance(30_000)
    expect(
      (await short.request(routes.sessionRefresh, { body: { refresh_token: login.refresh_token } }))
        .status,
    ).toBe(401)
  } finally {
    await short.close()
  }
})
