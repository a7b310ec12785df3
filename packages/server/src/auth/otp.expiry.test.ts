import { CODE_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Security bar 2: a code is rejected after its lifetime (10 minutes).
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('accepts a code just before expiry', async () => {
  await t.request(routes.emailInit, { body: { email: 'early@example.com' } })
  const code = await t.lastCode('early@example.com')
  t.clock.advance(CODE_TTL_MS - 1_000)
  const res = await t.request(routes.emailAuthenticate, {
    body: { email: 'early@example.com', code },
  })
  expect(res.status).toBe(200)
})

it('refuses the right code after CODE_TTL_MS with INVALID_CODE', async () => {
  await t.request(routes.emailInit, { body: { email: 'late@example.com' } })
  const code = await t.lastCode('late@example.com')
  t.clock.advance(CODE_TTL_MS)
  const res = await t.request(routes.emailAuthenticate, {
    body: { email: 'late@example.com', code },
  })
  expect(res).toMatchObject({
    status: 422,
    body: { code: 'INVALID_CODE', message: 'Invalid or expired verification code' },
  })
})

it('a new code replaces the older one', async () => {
  await t.request(routes.emailInit, { body: { email: 'twice@example.com' } })
  const first = await t.lastCode('twice@example.com')
  t.clock.advance(31_000)
  await t.request(routes.emailInit, { body: { email: 'twice@example.com' } })
  const second = await t.lastCode('twice@example.com')
  if (first !== second) {
    const old = await t.request(routes.emailAuthenticate, {
      body: { email: 'twice@example.com', code: first },
    })
    expect(old.body.code).toBe('INVALID_CODE')
  }
  const res = await t.request(routes.emailAuthenticate, {
    body: { email: 'twice@example.com', code: second },
  })
  expect(res.status).toBe(200)
})
