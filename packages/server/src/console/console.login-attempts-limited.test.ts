import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, createAdminWithCli } from './console.test-helper.ts'
import { CONSOLE_LOGIN_LIMIT } from './routes.ts'

let t: TestInstance
beforeAll(async () => {
  // The client address comes from X-Forwarded-For, so one test can be two addresses.
  t = await getTestInstance({ trustProxy: true })
})
afterAll(() => t.close())

const fromIp = (ip: string) => ({ 'x-forwarded-for': ip })

it('sign-in attempts are limited per address; the limit lifts with its window', async () => {
  const { token } = await createAdminWithCli(t)
  const wrong = `${token.slice(0, -4)}AAAA`
  for (let i = 0; i < CONSOLE_LOGIN_LIMIT.limit; i++) {
    const res = await consoleRequest(t, '/login', {
      body: { token: wrong },
      headers: fromIp('192.0.2.1'),
    })
    expect(res.status).toBe(401)
  }
  // Past the limit: 429 with Retry-After, even for the right token from that address…
  const limited = await consoleRequest(t, '/login', {
    body: { token },
    headers: fromIp('192.0.2.1'),
  })
  expect(limited.status).toBe(429)
  expect(limited.body.code).toBe('TOO_MANY_ATTEMPTS')
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
  // …while another address signs in.
  expect(
    (await consoleRequest(t, '/login', { body: { token }, headers: fromIp('198.51.100.7') }))
      .status,
  ).toBe(200)
  t.clock.advance(CONSOLE_LOGIN_LIMIT.windowMs)
  expect(
    (await consoleRequest(t, '/login', { body: { token }, headers: fromIp('192.0.2.1') })).status,
  ).toBe(200)
})
