import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { toAppConfig } from '../apps/service.ts'
import { type FakeTurnstile, startFakeTurnstile } from '../test/fakes/turnstile.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'

// Security bar 49 (Turnstile): tokens are checked with siteverify before
// anything else; a reused or stale token fails; an unreachable verifier blocks.
const SECRET = '0x4AAAAAAAtest-secret-key-0123456789'
const SITE_KEY = '1x00000000000000000000AA'
let t: TestInstance
let cf: FakeTurnstile
let email = 0
const nextEmail = () => `turnstile${++email}@example.com`
const send = (token: string | undefined) =>
  t.request(routes.emailInit, {
    body: { email: nextEmail(), token },
    origin: TEST_ORIGIN,
    headers: { 'x-forwarded-for': '203.0.113.7' },
  })

beforeAll(async () => {
  // Cloudflare and the server share the test's clock.
  cf = await startFakeTurnstile({ secret: SECRET, now: () => t.clock.now() })
  t = await getTestInstance({
    appSettings: { captcha_enabled: true, captcha_site_key: SITE_KEY },
    captcha: { turnstileSiteverifyUrl: cf.url, turnstileTimeoutMs: 300 },
    trustProxy: true,
  })
  await t.server.setAppProviderCredentials(t.app.id, { provider: 'turnstile', secret_key: SECRET })
})
afterAll(async () => {
  await t.close()
  await cf.close()
})
beforeEach(() => cf.setMode('ok'))

it('the app configuration names Turnstile and its site key only once the secret is set', async () => {
  const res = await t.request(`/api/v1/apps/${t.app.id}`)
  expect(res.body).toMatchObject({
    captcha_enabled: true,
    captcha_provider: 'turnstile',
    captcha_site_key: SITE_KEY,
  })
  // No secret: the server could not verify Turnstile, so ALTCHA runs instead.
  const other = await t.createApp({ captcha_enabled: true, captcha_site_key: SITE_KEY })
  expect(toAppConfig(other)).toMatchObject({ captcha_provider: 'altcha', captcha_site_key: null })
})

it('a site key of another form is refused when the app is configured', async () => {
  await expect(
    t.createApp({ captcha_enabled: true, captcha_site_key: 'not-a-key' }),
  ).rejects.toThrow(/Turnstile site key/)
})

it('a token Cloudflare accepts passes, with the secret, remoteip and an idempotency key', async () => {
  const token = cf.issueToken()
  expect((await send(token)).status).toBe(200)
  expect(cf.calls.at(-1)).toMatchObject({
    secret: SECRET,
    response: token,
    remoteip: '203.0.113.7',
  })
  expect(cf.calls.at(-1)?.idempotency_key).toMatch(/^[0-9a-f-]{36}$/)
})

it('a reused token is CAPTCHA_INVALID (timeout-or-duplicate), and refused locally too', async () => {
  const token = cf.issueToken()
  expect((await send(token)).status).toBe(200)
  expect(await send(token)).toMatchObject({ status: 400, body: { code: 'CAPTCHA_INVALID' } })
  expect(cf.calls.at(-1)?.response).toBe(token)
})

it('a stale token (solved more than 300 s ago) is CAPTCHA_INVALID', async () => {
  const token = cf.issueToken({ solvedAt: t.clock.now() - 301_000 })
  expect(await send(token)).toMatchObject({ status: 400, body: { code: 'CAPTCHA_INVALID' } })
})

describe('refusals are CAPTCHA_FAILED', () => {
  it('a token Cloudflare never issued (invalid-input-response)', async () => {
    expect(await send('made-up-token')).toMatchObject({
      status: 403,
      body: { code: 'CAPTCHA_FAILED' },
    })
  })

  it('no token (without asking Cloudflare)', async () => {
    const before = cf.calls.length
    expect(await send(undefined)).toMatchObject({ status: 403, body: { code: 'CAPTCHA_FAILED' } })
    expect(cf.calls.length).toBe(before)
  })

  it('a token solved on a hostname the app does not allow', async () => {
    expect(await send(cf.issueToken({ hostname: 'evil.example' }))).toMatchObject({
      status: 403,
      body: { code: 'CAPTCHA_FAILED' },
    })
  })
})

describe('an unreachable verifier blocks (CAPTCHA_TIMEOUT), never lets through', () => {
  it('siteverify answers 500', async () => {
    cf.setMode('error')
    expect(await send(cf.issueToken())).toMatchObject({
      status: 424,
      body: { code: 'CAPTCHA_TIMEOUT' },
    })
  })

  it('siteverify does not answer in time', async () => {
    cf.setMode('hang')
    expect(await send(cf.issueToken())).toMatchObject({
      status: 424,
      body: { code: 'CAPTCHA_TIMEOUT' },
    })
  })

  it('siteverify cannot be reached at all', async () => {
    const down = await getTestInstance({
      appSettings: { captcha_enabled: true, captcha_site_key: SITE_KEY },
      captcha: { turnstileSiteverifyUrl: 'http://127.0.0.1:9/turnstile/v0/siteverify' },
    })
    try {
      await down.server.setAppProviderCredentials(down.app.id, {
        provider: 'turnstile',
        secret_key: SECRET,
      })
      const res = await down.request(routes.emailInit, {
        body: { email: 'down@example.com', token: cf.issueToken() },
      })
      expect(res).toMatchObject({ status: 424, body: { code: 'CAPTCHA_TIMEOUT' } })
      expect(await down.countRows('dev_mailbox')).toBe(0)
    } finally {
      await down.close()
    }
  })

  it('our own secret refused (a server misconfiguration) blocks too', async () => {
    await t.server.setAppProviderCredentials(t.app.id, {
      provider: 'turnstile',
      secret_key: 'wrong-secret',
    })
    try {
      expect(await send(cf.issueToken())).toMatchObject({
        status: 424,
        body: { code: 'CAPTCHA_TIMEOUT' },
      })
    } finally {
      await t.server.setAppProviderCredentials(t.app.id, {
        provider: 'turnstile',
        secret_key: SECRET,
      })
    }
  })
})
