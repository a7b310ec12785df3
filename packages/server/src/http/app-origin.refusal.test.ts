import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('requires an app id', async () => {
  const res = await t.request(routes.emailInit, { body: { email: 'a@example.com' }, appId: null })
  expect(res).toMatchObject({ status: 400, body: { code: 'MISSING_APP_ID' } })
})

it('refuses an unknown app with 404 APP_NOT_FOUND', async () => {
  const res = await t.request(routes.emailInit, {
    body: { email: 'a@example.com' },
    appId: 'z'.repeat(25),
  })
  expect(res).toMatchObject({ status: 404, body: { code: 'APP_NOT_FOUND' } })
  expect((await t.request(routes.appConfig('z'.repeat(25)))).body.code).toBe('APP_NOT_FOUND')
})

it('refuses an Origin the app does not allow (403), and writes nothing', async () => {
  const before = await t.countRows('otp_codes')
  for (const origin of ['http://evil.test', `${TEST_ORIGIN}.evil.test`, 'null']) {
    const res = await t.request(routes.emailInit, { body: { email: 'a@example.com' }, origin })
    expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  }
  expect(await t.countRows('otp_codes')).toBe(before)
})

it('accepts the allowed Origin, and server-to-server calls without Origin', async () => {
  expect(
    (await t.request(routes.emailInit, { body: { email: 'b@example.com' }, origin: TEST_ORIGIN }))
      .status,
  ).toBe(200)
  expect((await t.request(routes.emailInit, { body: { email: 'c@example.com' } })).status).toBe(200)
})

it('serves the app config by :app_id path', async () => {
  const res = await t.request(routes.appConfig(t.app.id), { appId: null, origin: TEST_ORIGIN })
  expect(res.status).toBe(200)
  expect(res.body.id).toBe(t.app.id)
})

it('unknown routes are 404 NOT_FOUND JSON', async () => {
  const res = await t.request('/api/v1/nope')
  expect(res).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
  expect(res.headers.get('content-type')).toContain('application/json')
})
