import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { METRICS_TOKEN, sample, scrape } from './scrape.test-helper.ts'

// A request a limiter refuses is counted under the limit's name (the key's
// purpose), never its key: that holds the client's IP or the address.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    metrics: { token: METRICS_TOKEN },
    rateLimits: { codeSendsPerIp: { limit: 1, windowMs: 60 * 60_000 } },
  })
})
afterAll(() => t?.close())

it('counts a refusal of the per-IP code-send cap', async () => {
  const first = await t.request(routes.emailInit, { body: { email: 'one@example.com' } })
  expect(first.status).toBe(200)
  const second = await t.request(routes.emailInit, { body: { email: 'two@example.com' } })
  expect(second.status).toBe(429)
  expect(second.body.code).toBe('TOO_MANY_REQUESTS')

  const text = await scrape(t)
  expect(sample(text, 'latchkey_rate_limit_refusals_total', { limit: 'otp-send-ip' })).toBe(1)
  expect(
    sample(text, 'latchkey_http_requests_total', {
      method: 'POST',
      route: routes.emailInit,
      status: '429',
    }),
  ).toBe(1)
  expect(text).not.toContain('two@example.com')
})
