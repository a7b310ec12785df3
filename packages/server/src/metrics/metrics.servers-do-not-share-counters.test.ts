import { routes } from '@latchkey/protocol'
import { register } from 'prom-client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { METRICS_TOKEN, sample, scrape } from './scrape.test-helper.ts'

// Each server has its own registry: two servers in one process (tests, or a
// host embedding two) count apart, and prom-client's global registry is untouched.
let a: TestInstance
let b: TestInstance
beforeAll(async () => {
  a = await getTestInstance({ metrics: { token: METRICS_TOKEN } })
  b = await getTestInstance({ metrics: { token: METRICS_TOKEN } })
})
afterAll(async () => {
  await a?.close()
  await b?.close()
})

it('a login on one server is not counted on the other', async () => {
  await a.login('shared-a@example.com')
  await a.login('shared-b@example.com')
  await b.login('only-b@example.com')

  const textA = await scrape(a)
  const textB = await scrape(b)
  expect(sample(textA, 'latchkey_logins_total', { method: 'email' })).toBe(2)
  expect(sample(textB, 'latchkey_logins_total', { method: 'email' })).toBe(1)
  const inits = { method: 'POST', route: routes.emailInit, status: '200' }
  expect(sample(textA, 'latchkey_http_requests_total', inits)).toBe(2)
  expect(sample(textB, 'latchkey_http_requests_total', inits)).toBe(1)
  expect(a.server.services.metrics.registry).not.toBe(b.server.services.metrics.registry)
  expect(await register.getSingleMetric('latchkey_logins_total')).toBeUndefined()
})
