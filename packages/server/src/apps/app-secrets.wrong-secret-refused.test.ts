import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest } from './app-secrets.test-helper.ts'
import { APP_SECRET_PREFIX } from './app-secrets.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a wrong app secret is refused with 401 INVALID_APP_SECRET; the right one passes', async () => {
  for (const secret of [
    `${APP_SECRET_PREFIX}${'A'.repeat(43)}`,
    t.appSecret.slice(0, -1),
    `${t.appSecret}x`,
    'x',
  ]) {
    const res = await appRequest(t, routes.appUsers, { secret })
    expect(res.status, secret).toBe(401)
    expect(res.body.code).toBe('INVALID_APP_SECRET')
  }
  const ok = await appRequest(t, routes.appUsers)
  expect(ok.status).toBe(200)
  expect(ok.body).toEqual({ data: [], next_cursor: null })
})
