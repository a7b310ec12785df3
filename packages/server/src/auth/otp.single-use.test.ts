import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 3: a correct code works once.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a correct code works once', async () => {
  await t.request(routes.emailInit, { body: { email: 'once@example.com' } })
  const code = await t.lastCode('once@example.com')
  expect(
    (await t.request(routes.emailAuthenticate, { body: { email: 'once@example.com', code } }))
      .status,
  ).toBe(200)
  const replay = await t.request(routes.emailAuthenticate, {
    body: { email: 'once@example.com', code },
  })
  expect(replay).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
})

it('a concurrent double-submit yields exactly one success and one user', async () => {
  await t.request(routes.emailInit, { body: { email: 'double@example.com' } })
  const code = await t.lastCode('double@example.com')
  const sessionsBefore = await t.countRows('sessions')
  const results = await Promise.all(
    Array.from({ length: 4 }, () =>
      t.request(routes.emailAuthenticate, { body: { email: 'double@example.com', code } }),
    ),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.status === 422)).toHaveLength(3)
  expect(await t.countRows('sessions')).toBe(sessionsBefore + 1)
  const accounts = await t.db
    .selectFrom('linked_accounts')
    .select('id')
    .where('identifier', '=', 'double@example.com')
    .execute()
  expect(accounts).toHaveLength(1)
})
