import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Found by the route fuzzer (http/fuzz.hostile-bodies.test.ts): an app id
// with a NUL byte reached the apps query, and PostgreSQL refuses a NUL in a
// text parameter ("invalid byte sequence for encoding UTF8: 0x00"): a 500.
// Whatever is not an app id (spec 01 §5: 25 lowercase alphanumerics) is now
// 404 APP_NOT_FOUND without a lookup, on both databases.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it.each([
  ['a NUL byte', '%00'],
  ['a NUL inside an id-shaped value', `${'a'.repeat(12)}%00${'a'.repeat(12)}`],
  ['10 KB', 'a'.repeat(10_000)],
  ['upper case', 'A'.repeat(25)],
])('an app id of %s is 404 APP_NOT_FOUND', async (_, appId) => {
  const res = await t.request(routes.appConfig(appId), { appId: null })
  expect(res.status).toBe(404)
  expect(res.body).toMatchObject({ code: 'APP_NOT_FOUND' })
})

it('a header app id that is not one is refused the same way', async () => {
  const res = await t.request(routes.usersMe, { appId: `${'a'.repeat(24)}\u00ff` })
  expect(res.status).toBe(404)
  expect(res.body).toMatchObject({ code: 'APP_NOT_FOUND' })
})
