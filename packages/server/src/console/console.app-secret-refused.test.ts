import { afterAll, beforeAll, expect, it } from 'vitest'
import { basicAuth } from '../apps/app-secrets.test-helper.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, sessionFrom } from './console.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('the app secret is refused as a console credential: as a token, a cookie or Basic auth', async () => {
  const login = await consoleRequest(t, '/login', { body: { token: t.appSecret } })
  expect(login.status).toBe(401)
  expect(login.body.code).toBe('UNAUTHORIZED')
  expect(sessionFrom(login.headers)).toBeUndefined()

  expect((await consoleRequest(t, '/apps', { session: t.appSecret })).status).toBe(401)
  const basic = await consoleRequest(t, '/apps', {
    headers: { authorization: basicAuth(t.app.id, t.appSecret) },
  })
  expect(basic.status).toBe(401)
  expect(await t.countRows('console_sessions')).toBe(0)
})
