import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { ALTCHA_CHALLENGE_TTL_MS } from './altcha.ts'
import { altchaToken, fetchAltchaChallenge, solveAltcha } from './testing.ts'

// Security bar 49 (ALTCHA): a solved challenge passes once; a reused, stale,
// forged or other app's one fails; no third party is asked.
let t: TestInstance
let email = 0
const nextEmail = () => `altcha${++email}@example.com`
const send = (token: string | undefined, appId?: string) =>
  t.request(routes.emailInit, { body: { email: nextEmail(), token }, appId, origin: TEST_ORIGIN })
const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64')

beforeAll(async () => {
  t = await getTestInstance({ appSettings: { captcha_enabled: true } })
})
afterAll(() => t.close())

describe('challenge endpoint', () => {
  it('serves a signed PBKDF2 challenge bound to the app, expiring in 5 minutes', async () => {
    const challenge = await fetchAltchaChallenge(t)
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/)
    expect(challenge.parameters).toMatchObject({
      algorithm: 'PBKDF2/SHA-256',
      data: { app_id: t.app.id },
      expiresAt: (t.clock.now() + ALTCHA_CHALLENGE_TTL_MS) / 1000,
    })
  })

  it('refuses an origin the app does not allow, and apps without ALTCHA', async () => {
    const res = await t.request(`${routes.captchaAltchaChallenge}?app_id=${t.app.id}`, {
      appId: null,
      origin: 'https://evil.example',
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    const plain = await t.createApp({})
    const none = await t.request(`${routes.captchaAltchaChallenge}?app_id=${plain.id}`, {
      appId: null,
    })
    expect(none.status).toBe(404)
  })
})

it('a solved challenge passes once; its reuse is CAPTCHA_INVALID', async () => {
  const token = await altchaToken(t)
  expect((await send(token)).status).toBe(200)
  expect(await send(token)).toMatchObject({ status: 400, body: { code: 'CAPTCHA_INVALID' } })
})

it('the same solution re-encoded (other JSON, other time) is still a reuse', async () => {
  const token = await altchaToken(t)
  expect((await send(token)).status).toBe(200)
  const payload = decode(token)
  payload.solution.time = 1
  expect(await send(encode(payload))).toMatchObject({ body: { code: 'CAPTCHA_INVALID' } })
})

it('concurrent uses of one token: exactly one passes', async () => {
  const token = await altchaToken(t)
  const results = await Promise.all(Array.from({ length: 4 }, () => send(token)))
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(results.filter((r) => r.body?.code === 'CAPTCHA_INVALID')).toHaveLength(3)
})

it('a stale challenge (past its 5 minutes) is CAPTCHA_INVALID', async () => {
  const token = await altchaToken(t)
  t.clock.advance(ALTCHA_CHALLENGE_TTL_MS + 1_000)
  expect(await send(token)).toMatchObject({ status: 400, body: { code: 'CAPTCHA_INVALID' } })
})

describe('forged tokens are CAPTCHA_FAILED', () => {
  it('a wrong solution', async () => {
    const payload = decode(await altchaToken(t))
    payload.solution.counter += 1
    payload.solution.derivedKey = '00'.repeat(32)
    expect(await send(encode(payload))).toMatchObject({
      status: 403,
      body: { code: 'CAPTCHA_FAILED' },
    })
  })

  it('tampered parameters (an easier prefix, a later expiry)', async () => {
    const challenge = await fetchAltchaChallenge(t)
    challenge.parameters.expiresAt = (challenge.parameters.expiresAt ?? 0) + 3600
    expect(await send(await solveAltcha(challenge))).toMatchObject({
      body: { code: 'CAPTCHA_FAILED' },
    })
  })

  it('a self-made challenge signed with another key', async () => {
    const { createChallenge } = await import('altcha-lib')
    const { deriveKey } = await import('altcha-lib/algorithms/pbkdf2')
    const forged = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: 1,
      counter: 1,
      deriveKey,
      data: { app_id: t.app.id },
      expiresAt: Math.floor(t.clock.now() / 1000) + 60,
      hmacSignatureSecret: 'guessed',
      hmacKeySignatureSecret: 'guessed-too',
    })
    expect(await send(await solveAltcha(forged))).toMatchObject({
      body: { code: 'CAPTCHA_FAILED' },
    })
  })

  it("another app's solved challenge", async () => {
    const other = await t.createApp({ captcha_enabled: true })
    const token = await altchaToken(t, other.id)
    expect(await send(token)).toMatchObject({ body: { code: 'CAPTCHA_FAILED' } })
  })

  it("the widget's test-mode payload and garbage", async () => {
    const testMode = encode({ challenge: null, solution: null, test: true })
    expect(await send(testMode)).toMatchObject({ body: { code: 'CAPTCHA_FAILED' } })
    expect(await send('not base64 json')).toMatchObject({ body: { code: 'CAPTCHA_FAILED' } })
  })

  it('no token at all', async () => {
    expect(await send(undefined)).toMatchObject({ status: 403, body: { code: 'CAPTCHA_FAILED' } })
  })
})
