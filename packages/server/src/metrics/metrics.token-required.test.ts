import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { METRICS_PATH } from './http.ts'
import { METRICS_TOKEN, sample } from './scrape.test-helper.ts'

// With a token, /metrics answers only `Authorization: Bearer <token>`; with
// `public` (a private network) it answers anyone.
describe('with LATCHKEY_METRICS_TOKEN', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await getTestInstance({ metrics: { token: METRICS_TOKEN } })
  })
  afterAll(() => t?.close())

  it('401 without a token, with a wrong one, or with another scheme', async () => {
    const refused: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer wrong-token-0123456789abcdef00' },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}` },
      { authorization: `Basic ${METRICS_TOKEN}` },
    ]
    for (const headers of refused) {
      const res = await t.request(METRICS_PATH, { headers })
      expect({ headers, status: res.status }).toEqual({ headers, status: 401 })
      expect(res.body.code).toBe('UNAUTHORIZED')
      expect(res.headers.get('www-authenticate')).toBe('Bearer')
    }
  })

  it('200 in Prometheus text format with the token, default process metrics included', async () => {
    const res = await t.server.app.request(METRICS_PATH, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const text = await res.text()
    expect(text).toContain('# TYPE latchkey_http_requests_total counter')
    expect(text).toContain('# TYPE latchkey_http_request_duration_seconds histogram')
    expect(text).toContain('# TYPE latchkey_rate_limit_refusals_total counter')
    expect(sample(text, 'latchkey_logins_total', { method: 'passkey' })).toBe(0)
    expect(sample(text, 'latchkey_wallet_operations_total', { operation: 'create' })).toBe(0)
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m)
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m)
    // The refused scrapes above were counted, under the route's template.
    expect(
      sample(text, 'latchkey_http_requests_total', {
        method: 'GET',
        route: METRICS_PATH,
        status: '401',
      }),
    ).toBe(6)
  })
})

describe('with LATCHKEY_METRICS=public', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await getTestInstance({ metrics: { public: true } })
  })
  afterAll(() => t?.close())

  it('200 without a token', async () => {
    const res = await t.server.app.request(METRICS_PATH)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('latchkey_logins_total')
  })
})

it('refuses a token shorter than 16 characters, and a token together with public', async () => {
  await expect(getTestInstance({ metrics: { token: 'short' } })).rejects.toThrow(/16 characters/)
  await expect(
    getTestInstance({ metrics: { token: METRICS_TOKEN, public: true } }),
  ).rejects.toThrow(/not both/)
})
