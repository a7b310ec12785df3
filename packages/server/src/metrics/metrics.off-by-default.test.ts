import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { METRICS_PATH } from './http.ts'
import { noMetrics } from './registry.ts'

// Metrics reveal traffic: without LATCHKEY_METRICS_TOKEN or
// LATCHKEY_METRICS=public the route does not exist, and nothing is counted.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t?.close())

it('GET /metrics is a 404 like any unknown path, and the server counts nothing', async () => {
  const attempts: Array<Record<string, string>> = [
    {},
    { authorization: 'Bearer anything-at-all-here-0000' },
  ]
  for (const headers of attempts) {
    const res = await t.request(METRICS_PATH, { headers })
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('NOT_FOUND')
  }
  expect(t.server.services.metrics).toBe(noMetrics)
})
