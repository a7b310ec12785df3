import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest } from './app-secrets.test-helper.ts'
import { APP_AUTH_FAILURES } from './app-secrets-auth.ts'

let t: TestInstance
beforeAll(async () => {
  // The client address comes from X-Forwarded-For, so one test can be two addresses.
  t = await getTestInstance({ trustProxy: true })
})
afterAll(() => t.close())

const fromIp = (ip: string) => ({ 'x-forwarded-for': ip })

it('failed secret checks are limited per app and address; the limit lifts with its window', async () => {
  const wrong = 'lk_sk_wrong'
  for (let i = 0; i < APP_AUTH_FAILURES.limit; i++) {
    const res = await appRequest(t, routes.appUsers, {
      secret: wrong,
      headers: fromIp('192.0.2.1'),
    })
    expect(res.body.code).toBe('INVALID_APP_SECRET')
  }
  // Past the limit: 429 with Retry-After, even for the right secret from that address…
  const limited = await appRequest(t, routes.appUsers, { headers: fromIp('192.0.2.1') })
  expect(limited.status).toBe(429)
  expect(limited.body.code).toBe('TOO_MANY_REQUESTS')
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  // …while the app's backend at another address is not locked out.
  expect((await appRequest(t, routes.appUsers, { headers: fromIp('198.51.100.7') })).status).toBe(
    200,
  )
  t.clock.advance(APP_AUTH_FAILURES.windowMs)
  expect((await appRequest(t, routes.appUsers, { headers: fromIp('192.0.2.1') })).status).toBe(200)
})
