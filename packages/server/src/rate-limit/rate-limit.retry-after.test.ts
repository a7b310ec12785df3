import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

// Tracker issue 16, item 3: a 429 whose limit lifts at a known time says
// when, as `retry_after` (whole seconds) in the body and as `Retry-After`
// (RFC 9110 §10.2.3), so a client can count down instead of guessing. The
// resend cooldown's own cases are in auth/otp.resend-cooldown.test.ts.
const WINDOW_MS = 60_000
const ORIGIN = TEST_ORIGIN

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    trustProxy: true,
    rateLimits: {
      codeAttemptsPerIp: { limit: 2, windowMs: WINDOW_MS },
      codeAttemptsPerIdentifier: { limit: 2, windowMs: WINDOW_MS },
    },
  })
})
afterAll(() => t.close())

const guess = (email: string, ip: string) =>
  t.request(routes.emailAuthenticate, {
    body: { email, code: '000000' },
    headers: { 'x-forwarded-for': ip },
    origin: ORIGIN,
  })

it('the per-IP cap on code attempts: what is left of its window', async () => {
  const ip = '198.51.100.7'
  expect((await guess('a@example.com', ip)).status).toBe(422)
  t.clock.advance(20_000)
  expect((await guess('b@example.com', ip)).status).toBe(422)
  t.clock.advance(5_500)
  const refused = await guess('c@example.com', ip)
  // The window opened 25.5 s ago: 34.5 s are left, rounded up.
  expect(refused).toMatchObject({
    status: 429,
    body: { code: 'TOO_MANY_REQUESTS', retry_after: 35 },
  })
  expect(refused.headers.get('retry-after')).toBe('35')
  // A cross-origin page may read it: the header is exposed to the allowed origin.
  expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  expect(refused.headers.get('access-control-expose-headers')).toBe('Retry-After, X-Request-Id')
})

it('the per-address cap on code attempts (TOO_MANY_ATTEMPTS)', async () => {
  const email = 'capped@example.com'
  expect((await guess(email, '198.51.100.20')).status).toBe(422)
  expect((await guess(email, '198.51.100.21')).status).toBe(422)
  t.clock.advance(59_000)
  const refused = await guess(email, '198.51.100.22')
  expect(refused).toMatchObject({
    status: 429,
    body: { code: 'TOO_MANY_ATTEMPTS', retry_after: 1 },
  })
  expect(refused.headers.get('retry-after')).toBe('1')
})

it('a refusal with no known end carries neither', async () => {
  const refused = await guess('nobody@example.com', '198.51.100.30')
  expect(refused).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
  expect(refused.body.retry_after).toBeUndefined()
  expect(refused.headers.get('retry-after')).toBeNull()
})
