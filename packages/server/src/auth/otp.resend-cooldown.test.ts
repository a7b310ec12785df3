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
  // 1 ms left: rounded up to a whole second, never 0.
  expect(early).toMatchObject({ status: 429, body: { code: 'RESEND_COOLDOWN', retry_after: 1 } })
  expect(early.headers.get('retry-after')).toBe('1')
  expect(await t.countRows('dev_mailbox')).toBe(1)
  t.clock.advance(1)
  expect((await t.request(routes.emailInit, { body: { email: 'cool@example.com' } })).status).toBe(
    200,
  )
})

it('says how many seconds of the cooldown are left, in the body and as Retry-After (issue 16, 3)', async () => {
  const email = 'countdown@example.com'
  expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
  const seconds = CODE_RESEND_COOLDOWN_MS / 1000
  const now = await t.request(routes.emailInit, { body: { email } })
  expect(now).toMatchObject({
    status: 429,
    body: { code: 'RESEND_COOLDOWN', retry_after: seconds },
  })
  expect(now.headers.get('retry-after')).toBe(String(seconds))
  t.clock.advance(12_000)
  const later = await t.request(routes.emailInit, { body: { email } })
  expect(later.body.retry_after).toBe(seconds - 12)
  expect(later.headers.get('retry-after')).toBe(String(seconds - 12))
  t.clock.advance(500)
  expect((await t.request(routes.emailInit, { body: { email } })).body.retry_after).toBe(
    seconds - 12,
  )
  // An answer that is not a 429 carries neither.
  t.clock.advance(CODE_RESEND_COOLDOWN_MS)
  const sent = await t.request(routes.emailInit, { body: { email } })
  expect(sent.status).toBe(200)
  expect(sent.headers.get('retry-after')).toBeNull()
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
  // The hour's window opened at the first send, 10 cooldowns (300 s) ago.
  const capped = await t.request(routes.emailInit, { body: { email } })
  expect(capped).toMatchObject({
    status: 429,
    body: { code: 'TOO_MANY_REQUESTS', retry_after: 3600 - (10 * CODE_RESEND_COOLDOWN_MS) / 1000 },
  })
  expect(capped.headers.get('retry-after')).toBe(String(capped.body.retry_after))
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
  // The per-IP window opened with this test's first send: a whole hour is left.
  expect(res.body.retry_after).toBe(3600)
  expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after))
  const other = await t.request(routes.emailInit, {
    body: { email: 'ip-last@example.com' },
    headers: { 'x-forwarded-for': '203.0.113.10' },
  })
  expect(other.status).toBe(200)
})
