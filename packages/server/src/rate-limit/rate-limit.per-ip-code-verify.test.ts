import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultRateLimits, loadConfigFromEnv } from '../config.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Tracker issue 15, item 3: every code verification (email and SMS:
// authenticate, link, update) counts against the caller's IP as well as the
// address, so one IP cannot spray guesses across many addresses. The IP is
// counted first: a refused guess spends nothing of the address's budget.
const LIMIT = 3
const WINDOW_MS = 60_000
const EMAIL = 'verify-ip@example.com'
const PHONE = '+14155550130'

let t: TestInstance
let emailUser: string
let phoneUser: string
beforeAll(async () => {
  t = await getTestInstance({
    trustProxy: true,
    rateLimits: { codeAttemptsPerIp: { limit: LIMIT, windowMs: WINDOW_MS } },
    appSettings: { login_methods: { email: true, sms: true } },
  })
  emailUser = (await t.login(EMAIL)).token ?? ''
  phoneUser = (await loginByPhone(PHONE)).token ?? ''
})
afterAll(() => t.close())

const from = (ip: string) => ({ 'x-forwarded-for': ip })

async function smsCode(phone: string, ip = '192.0.2.250'): Promise<string> {
  const sent = await t.request(routes.smsInit, { body: { phoneNumber: phone }, headers: from(ip) })
  expect(sent.status).toBe(200)
  const outbox = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: null,
  })
  return outbox.body.messages[0].code
}

async function loginByPhone(phone: string) {
  const code = await smsCode(phone)
  const res = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: phone, code },
    headers: from('192.0.2.251'),
  })
  expect(res.status).toBe(200)
  t.clock.advance(31_000)
  return res.body
}

const wrong = '000000'

interface VerifyRoute {
  name: string
  path: string
  token: () => string | undefined
  body: (code: string) => object
}

const verifyRoutes: VerifyRoute[] = [
  {
    name: 'email authenticate',
    path: routes.emailAuthenticate,
    token: () => undefined,
    body: (code) => ({ email: EMAIL, code }),
  },
  {
    name: 'email link',
    path: routes.emailLink,
    token: () => phoneUser,
    body: (code) => ({ email: 'link-me@example.com', code }),
  },
  {
    name: 'email update',
    path: routes.emailUpdate,
    token: () => emailUser,
    body: (code) => ({ oldAddress: EMAIL, newAddress: 'moved@example.com', code }),
  },
  {
    name: 'SMS authenticate',
    path: routes.smsAuthenticate,
    token: () => undefined,
    body: (code) => ({ phoneNumber: PHONE, code }),
  },
  {
    name: 'SMS link',
    path: routes.smsLink,
    token: () => emailUser,
    body: (code) => ({ phoneNumber: '+14155550131', code }),
  },
  {
    name: 'SMS update',
    path: routes.smsUpdate,
    token: () => phoneUser,
    body: (code) => ({ old_phone_number: PHONE, new_phone_number: '+14155550132', code }),
  },
]

describe.each(
  verifyRoutes.map((route, i) => ({
    ...route,
    ip: `198.51.100.${i + 1}`,
    otherIp: `198.51.100.${i + 101}`,
  })),
)('$name', ({ path, token, body, ip, otherIp }) => {
  it(`counts each attempt against the IP: ${LIMIT} go through, then 429 TOO_MANY_REQUESTS; another IP is unaffected`, async () => {
    const attempt = (from_ip: string) =>
      t.request(path, { token: token(), body: body(wrong), headers: from(from_ip) })
    for (let i = 0; i < LIMIT; i++)
      expect(await attempt(ip)).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
    expect(await attempt(ip)).toMatchObject({
      status: 429,
      body: { code: 'TOO_MANY_REQUESTS' },
    })
    expect(await attempt(otherIp)).toMatchObject({
      status: 422,
      body: { code: 'INVALID_CODE' },
    })
  })
})

describe('one IP spraying guesses over many addresses', () => {
  it('is capped across addresses, and a refused guess spends nothing of the address budget', async () => {
    const ip = '203.0.113.40'
    for (let i = 0; i < LIMIT; i++) {
      const res = await t.request(routes.emailAuthenticate, {
        body: { email: `spray${i}@example.com`, code: wrong },
        headers: from(ip),
      })
      expect(res.body.code).toBe('INVALID_CODE')
    }
    const refused = await t.request(routes.emailAuthenticate, {
      body: { email: 'spray-last@example.com', code: wrong },
      headers: from(ip),
    })
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    expect(
      await t.server.services.limiter.peek(`otp-attempt:${t.app.id}:email:spray-last@example.com`),
    ).toBe(0)
  })

  it('holds under a concurrent burst: exactly the cap is counted', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request(routes.emailAuthenticate, {
          body: { email: `burst${i}@example.com`, code: wrong },
          headers: from('203.0.113.41'),
        }),
      ),
    )
    expect(results.filter((r) => r.body.code === 'INVALID_CODE')).toHaveLength(LIMIT)
    expect(results.filter((r) => r.body.code === 'TOO_MANY_REQUESTS')).toHaveLength(10 - LIMIT)
  })

  it('the right code from a capped IP opens no session until the window ends', async () => {
    const email = 'right-code@example.com'
    expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
    const code = await t.lastCode(email)
    const ip = '203.0.113.42'
    for (let i = 0; i < LIMIT; i++)
      await t.request(routes.emailAuthenticate, {
        body: { email: `other${i}@example.com`, code: wrong },
        headers: from(ip),
      })
    const refused = await t.request(routes.emailAuthenticate, {
      body: { email, code },
      headers: from(ip),
    })
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    expect(refused.body.token).toBeUndefined()
    t.clock.advance(WINDOW_MS - 1)
    expect(
      (await t.request(routes.emailAuthenticate, { body: { email, code }, headers: from(ip) }))
        .status,
    ).toBe(429)
    t.clock.advance(1)
    expect(
      (await t.request(routes.emailAuthenticate, { body: { email, code }, headers: from(ip) }))
        .status,
    ).toBe(200)
  })

  it('an IPv6 client is counted by its /64: new addresses in it share one budget', async () => {
    const attempt = (ip: string, i: number) =>
      t.request(routes.emailAuthenticate, {
        body: { email: `v6-${i}@example.com`, code: wrong },
        headers: from(ip),
      })
    for (let i = 0; i < LIMIT; i++)
      expect((await attempt(`2001:db8:7:7::${i + 1}`, i)).body.code).toBe('INVALID_CODE')
    expect((await attempt('2001:db8:7:7:ffff::99', 9)).body.code).toBe('TOO_MANY_REQUESTS')
    expect((await attempt('2001:db8:7:8::1', 10)).body.code).toBe('INVALID_CODE')
  })
})

describe('configuration', () => {
  it('defaults to 100 attempts per IP per hour', () => {
    expect(defaultRateLimits.codeAttemptsPerIp).toEqual({ limit: 100, windowMs: 60 * 60_000 })
  })

  it('LATCHKEY_RATE_CODE_ATTEMPTS_PER_IP sets the hourly cap', () => {
    expect(
      loadConfigFromEnv({ LATCHKEY_RATE_CODE_ATTEMPTS_PER_IP: '7' }).rateLimits?.codeAttemptsPerIp,
    ).toEqual({ limit: 7, windowMs: 60 * 60_000 })
  })
})
