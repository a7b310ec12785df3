import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { altchaToken } from './testing.ts'

// Security bar 49: a login start with a failing captcha does nothing — no
// code stored or sent, no nonce, no OAuth state — and apps without captcha
// are unaffected.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { captcha_enabled: true, login_methods: { email: true, sms: true, wallet: true } },
  })
})
afterAll(() => t.close())

const counts = async () => ({
  codes: await t.countRows('otp_codes'),
  mails: await t.countRows('dev_mailbox'),
  nonces: await t.countRows('sign_in_nonces'),
})

it('email send-code without a valid token: no code stored, no email sent', async () => {
  const before = await counts()
  for (const token of [undefined, 'forged']) {
    const res = await t.request(routes.emailInit, {
      body: { email: 'nobody@example.com', token },
      origin: TEST_ORIGIN,
    })
    expect(res.body.code).toBe('CAPTCHA_FAILED')
  }
  expect(await counts()).toEqual(before)
})

it('with a solved token the same call sends the code', async () => {
  const res = await t.request(routes.emailInit, {
    body: { email: 'somebody@example.com', token: await altchaToken(t) },
    origin: TEST_ORIGIN,
  })
  expect(res.status).toBe(200)
  expect(await t.lastCode('somebody@example.com')).toMatch(/^\d{6}$/)
})

it('SMS send-code and the SIWE nonce are refused before any work too', async () => {
  const before = await counts()
  const sms = await t.request(routes.smsInit, { body: { phoneNumber: '+14155550123' } })
  expect(sms.body.code).toBe('CAPTCHA_FAILED')
  const siwe = await t.request(routes.siweInit, {
    body: { address: '0x000000000000000000000000000000000000dEaD' },
  })
  expect(siwe.body.code).toBe('CAPTCHA_FAILED')
  expect(await counts()).toEqual(before)
})

it('a payload error is reported before the captcha is spent', async () => {
  const token = await altchaToken(t)
  const bad = await t.request(routes.emailInit, { body: { email: 'not an email', token } })
  expect(bad.body.code).toBe('INVALID_PAYLOAD')
  const good = await t.request(routes.emailInit, { body: { email: 'after@example.com', token } })
  expect(good.status).toBe(200)
})

it('apps without captcha are unaffected: no token needed', async () => {
  const plain = await t.createApp({})
  const res = await t.request(routes.emailInit, {
    body: { email: 'plain@example.com' },
    appId: plain.id,
  })
  expect(res.status).toBe(200)
})

it('routes that start nothing (authenticate) need no token', async () => {
  const token = await altchaToken(t)
  await t.request(routes.emailInit, { body: { email: 'auth@example.com', token } })
  const code = await t.lastCode('auth@example.com')
  const res = await t.request(routes.emailAuthenticate, {
    body: { email: 'auth@example.com', code },
  })
  expect(res.status).toBe(200)
})
