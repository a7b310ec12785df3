import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

// Security bar 47: CORS reflects only allowlisted origins.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const preflight = (origin: string) =>
  t.server.app.request(routes.emailInit, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,latchkey-app-id',
    },
  })

it('answers a preflight from an allowlisted origin with credentials and the latchkey headers', async () => {
  const res = await preflight(TEST_ORIGIN)
  expect(res.status).toBe(204)
  expect(res.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN)
  expect(res.headers.get('access-control-allow-credentials')).toBe('true')
  const allowed = res.headers.get('access-control-allow-headers') ?? ''
  for (const h of [
    'latchkey-app-id',
    'latchkey-client-id',
    'latchkey-ca-id',
    'latchkey-client',
    // Login requests carry the enclave key's thumbprint (sessions/enclave-key.ts).
    'latchkey-enclave-key',
    'authorization',
    'content-type',
  ])
    expect(allowed).toContain(h)
  expect(res.headers.get('vary')).toContain('Origin')
})

it('does not reflect an unknown origin, nor a look-alike', async () => {
  for (const origin of [
    'http://evil.test',
    `${TEST_ORIGIN}.evil.test`,
    'null',
    'http://app.test:8080',
  ]) {
    const res = await preflight(origin)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  }
})

it('reflects the origin on a real request of the app that allows it', async () => {
  const res = await t.request(routes.appConfig(t.app.id), { origin: TEST_ORIGIN })
  expect(res.status).toBe(200)
  expect(res.headers.get('access-control-allow-origin')).toBe(TEST_ORIGIN)
  expect(res.headers.get('access-control-allow-credentials')).toBe('true')
})

it("does not reflect an origin another app allows on this app's requests", async () => {
  const other = await t.createApp({}, ['http://other.test'])
  t.server.services.apps.invalidate()
  expect((await preflight('http://other.test')).headers.get('access-control-allow-origin')).toBe(
    'http://other.test',
  )
  const res = await t.request(routes.appConfig(t.app.id), { origin: 'http://other.test' })
  expect(res.status).toBe(403)
  expect(res.headers.get('access-control-allow-origin')).toBeNull()
  const own = await t.request(routes.appConfig(other.id), {
    origin: 'http://other.test',
    appId: other.id,
  })
  expect(own.headers.get('access-control-allow-origin')).toBe('http://other.test')
})
