import { CODE_RESEND_COOLDOWN_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ trustProxy: true })
})
afterAll(() => t.close())

it('refuses a resend within the cooldown (server-side), allows it after', async () => {
  expect((await t.request(routes.emailInit, { body: { email: 'cool@example.com' } })).status).toBe(
    200,
  )
  t.clock.advance(CODE_RESEND_COOLDOWN_MS - 1)
  const early = await t.request(routes.emailInit, { body: { email: 'cool@example.com' } })
  expect(early).toMatchObject({ status: 429, body: { code: 'RESEND_COOLDOWN' } })
  expect(await t.countRows('dev_mailbox')).toBe(1)
  t.clock.advance(1)
  expect((await t.request(routes.emailInit, { body: { email: 'cool@example.com' } })).status).toBe(
    200,
  )
})

it('the cooldown is per address (case-insensitive)', async () => {
  await t.request(routes.emailInit, { body: { email: 'one@example.com' } })
  expect(
    (await t.request(routes.emailInit, { body: { email: 'ONE@example.com' } })).body.code,
  ).toBe('RESEND_COOLDOWN')
  expect((await t.request(routes.emailInit, { body: { email: 'two@example.com' } })).status).toBe(
    200,
  )
})

it('caps sends per address per hour (10)', async () => {
  const email = 'hourly@example.com'
  for (let i = 0; i < 10; i++) {
    expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
    t.clock.advance(CODE_RESEND_COOLDOWN_MS)
  }
  expect(await t.request(routes.emailInit, { body: { email } })).toMatchObject({
    status: 429,
    body: { code: 'TOO_MANY_REQUESTS' },
  })
  t.clock.advance(60 * 60_000)
  expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
})

it('caps sends per IP per hour (50)', async () => {
  const headers = { 'x-forwarded-for': '203.0.113.9' }
  for (let i = 0; i < 50; i++) {
    const res = await t.request(routes.emailInit, {
      body: { email: `ip${i}@example.com` },
      headers,
    })
    expect(res.status).toBe(200)
  }
  const res = await t.request(routes.emailInit, { body: { email: 'ip-last@example.com' }, headers })
  expect(res).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
  const other = await t.request(routes.emailInit, {
    body: { email: 'ip-last@example.com' },
    headers: { 'x-forwarded-for': '203.0.113.10' },
  })
  expect(other.status).toBe(200)
})
