import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 33: after logout, the refresh token and the session are refused.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('logout with bearer + refresh token ends the session at once', async () => {
  const login = await t.login('bye@example.com')
  const res = await t.request(routes.sessionLogout, {
    token: login.token ?? '',
    body: { refresh_token: login.refresh_token },
  })
  expect(res).toMatchObject({ status: 200, body: { success: true } })
  expect(
    await t.request(routes.sessionRefresh, { body: { refresh_token: login.refresh_token } }),
  ).toMatchObject({
    status: 401,
    body: { code: 'INVALID_REFRESH_TOKEN' },
  })
  // The access token is still unexpired, but its session is gone.
  expect(await t.request(routes.usersMe, { token: login.token ?? '' })).toMatchObject({
    status: 401,
    body: { code: 'UNAUTHORIZED' },
  })
})

it('logout with only the bearer token revokes its session', async () => {
  const login = await t.login('bearer@example.com')
  expect(
    (await t.request(routes.sessionLogout, { token: login.token ?? '', body: {} })).status,
  ).toBe(200)
  expect(
    (await t.request(routes.sessionRefresh, { body: { refresh_token: login.refresh_token } }))
      .status,
  ).toBe(401)
})

it('logout with only the refresh token (expired access token) revokes its session', async () => {
  const login = await t.login('refresh-only@example.com')
  t.clock.advance(2 * 60 * 60_000)
  expect(
    (
      await t.request(routes.sessionLogout, {
        token: login.token ?? '',
        body: { refresh_token: login.refresh_token },
      })
    ).status,
  ).toBe(200)
  expect(
    (await t.request(routes.sessionRefresh, { body: { refresh_token: login.refresh_token } }))
      .status,
  ).toBe(401)
})

it('logout ends only that session; other sessions of the user live on', async () => {
  const a = await t.login('multi@example.com')
  const b = await t.login('multi@example.com')
  await t.request(routes.sessionLogout, {
    token: a.token ?? '',
    body: { refresh_token: a.refresh_token },
  })
  expect((await t.request(routes.usersMe, { token: b.token ?? '' })).status).toBe(200)
})

it('cannot log out a session of another app', async () => {
  const other = await t.createApp()
  const login = await t.login('foreign@example.com')
  await t.request(routes.sessionLogout, {
    appId: other.id,
    body: { refresh_token: login.refresh_token },
  })
  expect((await t.request(routes.usersMe, { token: login.token ?? '' })).status).toBe(200)
})

it('logout without any credential is refused', async () => {
  expect(await t.request(routes.sessionLogout, { body: {} })).toMatchObject({
    status: 401,
    body: { code: 'UNAUTHORIZED' },
  })
})
