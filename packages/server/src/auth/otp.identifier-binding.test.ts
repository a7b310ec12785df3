import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 4: a code issued for identifier A fails for B.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a code sent to A does not log in B (even when B has a code of its own)', async () => {
  await t.request(routes.emailInit, { body: { email: 'a@example.com' } })
  await t.request(routes.emailInit, { body: { email: 'b@example.com' } })
  const codeA = await t.lastCode('a@example.com')
  const codeB = await t.lastCode('b@example.com')
  if (codeA !== codeB) {
    const res = await t.request(routes.emailAuthenticate, {
      body: { email: 'b@example.com', code: codeA },
    })
    expect(res).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
  }
  const none = await t.request(routes.emailAuthenticate, {
    body: { email: 'c@example.com', code: codeA },
  })
  expect(none).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
  expect(
    (await t.request(routes.emailAuthenticate, { body: { email: 'a@example.com', code: codeA } }))
      .status,
  ).toBe(200)
})

it('a code of one app does not work in another app', async () => {
  const other = await t.createApp()
  await t.request(routes.emailInit, { body: { email: 'cross@example.com' } })
  const code = await t.lastCode('cross@example.com')
  const res = await t.request(routes.emailAuthenticate, {
    body: { email: 'cross@example.com', code },
    appId: other.id,
  })
  expect(res).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
})

it('the stored code is an HMAC bound to the identifier, never the plaintext', async () => {
  await t.request(routes.emailInit, { body: { email: 'hash@example.com' } })
  const code = await t.lastCode('hash@example.com')
  const row = await t.db
    .selectFrom('otp_codes')
    .selectAll()
    .where('identifier', '=', 'hash@example.com')
    .executeTakeFirstOrThrow()
  expect(row.code_hash).not.toContain(code)
  expect(row.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/)
})
