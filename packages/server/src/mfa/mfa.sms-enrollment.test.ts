import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  anotherSession,
  lastSmsCode,
  mfaCall,
  smsTo,
  userWithSms,
  userWithTotp,
  verifySms,
  verifyTotp,
} from '../test/mfa.ts'

// Issue 18, spec 02 "SMS: enroll, verify, done": enrolling a phone as the
// SMS factor (a code to the new phone, then that code), verifying with a
// code sent to the enrolled phone, and what is stored. The codes go through
// the SMS adapter, so in development they reach the dev outbox, where the
// browser tests read them.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { login_methods: { email: true, sms: true }, mfa_methods: ['totp', 'sms'] },
  })
})
afterAll(() => t.close())

const newDevice = async (email: string) => anotherSession(t, email, await createTestEnclaveKey())

const factorsOf = (userId: string) =>
  t.db.selectFrom('mfa_factors').selectAll().where('user_id', '=', userId).execute()

describe('enrolling a phone', () => {
  it('sends a code to the new phone by SMS; the code enables SMS and verifies this session', async () => {
    const device = await newDevice('sms-enroll@example.com')
    const phone = '+14155550100'
    const init = await mfaCall(t, device, routes.mfaSmsInit, {
      action: 'enroll',
      phone_number: '+1 (415) 555-0100',
    })
    expect(init).toMatchObject({ status: 200, body: { success: true } })
    const [message] = smsTo(t, phone)
    expect(message).toMatchObject({
      to: phone,
      channel: 'sms',
      code: expect.stringMatching(/^\d{6}$/),
    })
    expect(message?.body).toBe(
      `Your Test App verification code is ${message?.code}. It expires in 10 minutes. Do not share it.`,
    )
    // Nothing is enabled by sending a code.
    expect(await factorsOf(device.userId)).toEqual([])

    const now = t.clock.now()
    const res = await mfaCall(t, device, routes.mfaSmsEnroll, {
      phone_number: phone,
      code: lastSmsCode(t, phone),
    })
    expect(res.status).toBe(200)
    expect(res.body.user.mfa_methods).toEqual(['sms'])
    expect(res.body.verification).toEqual({
      method: 'sms',
      verified_at: Math.floor(now / 1000),
      expires_at: Math.floor((now + MFA_VERIFICATION_TTL_MS) / 1000),
    })
    const status = await t.request(routes.mfa, { token: device.token })
    expect(status.body).toEqual({
      factors: [{ method: 'sms', enrolled_at: Math.floor(now / 1000) }],
      verified_until: Math.floor((now + MFA_VERIFICATION_TTL_MS) / 1000),
    })
  })

  it('a wrong code is MFA_INVALID_CODE and enables nothing; the code works once', async () => {
    const device = await newDevice('sms-wrong@example.com')
    const phone = '+14155550101'
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'enroll', phone_number: phone })
    const code = lastSmsCode(t, phone)
    const wrong = code === '000000' ? '000001' : '000000'
    const refused = await mfaCall(t, device, routes.mfaSmsEnroll, {
      phone_number: phone,
      code: wrong,
    })
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'MFA_INVALID_CODE', message: 'The code you entered is not valid' },
    })
    expect(await factorsOf(device.userId)).toEqual([])
    const enrolled = await mfaCall(t, device, routes.mfaSmsEnroll, { phone_number: phone, code })
    expect(enrolled.status).toBe(200)
  })

  it('a code is bound to its phone and its user: another phone or another user cannot use it', async () => {
    const alice = await newDevice('sms-alice@example.com')
    const bob = await newDevice('sms-bob@example.com')
    const phone = '+14155550102'
    await mfaCall(t, alice, routes.mfaSmsInit, { action: 'enroll', phone_number: phone })
    const code = lastSmsCode(t, phone)
    const otherPhone = await mfaCall(t, alice, routes.mfaSmsEnroll, {
      phone_number: '+14155550103',
      code,
    })
    expect(otherPhone).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
    const otherUser = await mfaCall(t, bob, routes.mfaSmsEnroll, { phone_number: phone, code })
    expect(otherUser).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
    expect(await factorsOf(bob.userId)).toEqual([])
  })

  it('confirming without a code sent is MFA_INVALID_CODE', async () => {
    const device = await newDevice('sms-no-code@example.com')
    const res = await mfaCall(t, device, routes.mfaSmsEnroll, {
      phone_number: '+14155550104',
      code: '123456',
    })
    expect(res).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
  })

  it('a number that is not valid is 400 INVALID_PHONE_NUMBER, and nothing is sent', async () => {
    const device = await newDevice('sms-invalid@example.com')
    const res = await mfaCall(t, device, routes.mfaSmsInit, {
      action: 'enroll',
      phone_number: '+1 555',
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PHONE_NUMBER' } })
  })

  it('an app that does not offer SMS refuses it: 403 MFA_METHOD_NOT_ALLOWED, and nothing is sent', async () => {
    const other = await t.createApp({ mfa_methods: ['totp'] })
    const key = await createTestEnclaveKey()
    const auth = await t.login('sms-not-offered@example.com', { appId: other.id, enclaveKey: key })
    const call = (path: string, body: object) =>
      t.enclaveRequest(path, { token: auth.token ?? '', body, enclaveKey: key, appId: other.id })
    const phone = '+14155550105'
    const init = await call(routes.mfaSmsInit, { action: 'enroll', phone_number: phone })
    expect(init).toMatchObject({ status: 403, body: { code: 'MFA_METHOD_NOT_ALLOWED' } })
    expect(smsTo(t, phone)).toEqual([])
    const enroll = await call(routes.mfaSmsEnroll, { phone_number: phone, code: '123456' })
    expect(enroll).toMatchObject({ status: 403, body: { code: 'MFA_METHOD_NOT_ALLOWED' } })
  })

  it('a user who has SMS already gets MFA_ALREADY_ENROLLED (remove it first)', async () => {
    const device = await userWithSms(t, 'sms-twice@example.com', '+14155550106')
    const res = await mfaCall(t, device, routes.mfaSmsInit, {
      action: 'enroll',
      phone_number: '+14155550107',
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'MFA_ALREADY_ENROLLED' } })
    expect(smsTo(t, '+14155550107')).toEqual([])
  })

  it('with another factor, a new phone needs a fresh verification first; nothing is sent without it', async () => {
    const email = 'sms-second@example.com'
    const { device, secret } = await userWithTotp(t, email)
    t.clock.advance(MFA_VERIFICATION_TTL_MS)
    const phone = '+14155550108'
    const init = await mfaCall(t, device, routes.mfaSmsInit, {
      action: 'enroll',
      phone_number: phone,
    })
    expect(init).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })
    expect(init.body.details).toEqual({ mfa_methods: ['totp'] })
    expect(smsTo(t, phone)).toEqual([])
    const enroll = await mfaCall(t, device, routes.mfaSmsEnroll, {
      phone_number: phone,
      code: '123456',
    })
    expect(enroll).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })

    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'enroll', phone_number: phone })
    const res = await mfaCall(t, device, routes.mfaSmsEnroll, {
      phone_number: phone,
      code: lastSmsCode(t, phone),
    })
    expect(res.body.user.mfa_methods).toEqual(['totp', 'sms'])
  })
})

describe('verifying with SMS', () => {
  it('needs no verification to send the code; the code opens this session’s window, once', async () => {
    const phone = '+14155550110'
    const device = await userWithSms(t, 'sms-verify@example.com', phone)
    t.clock.advance(MFA_VERIFICATION_TTL_MS)
    expect((await mfaCall(t, device, routes.usersDelete, {})).body.code).toBe('MFA_REQUIRED')

    const init = await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })
    expect(init).toMatchObject({ status: 200, body: { success: true } })
    const code = lastSmsCode(t, phone)
    const now = t.clock.now()
    const res = await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code })
    expect(res).toMatchObject({
      status: 200,
      body: {
        method: 'sms',
        verified_at: Math.floor(now / 1000),
        expires_at: Math.floor((now + MFA_VERIFICATION_TTL_MS) / 1000),
      },
    })
    const again = await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code })
    expect(again).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
  })

  it('another session of the user verifies with its own code; the window is its own', async () => {
    const email = 'sms-two-sessions@example.com'
    const phone = '+14155550111'
    const first = await userWithSms(t, email, phone)
    t.clock.advance(MFA_VERIFICATION_TTL_MS)
    const second = await newDevice(email)
    expect((await verifySms(t, second, phone)).status).toBe(200)
    const until = async (token: string) =>
      (await t.request(routes.mfa, { token })).body.verified_until
    expect(await until(second.token)).toEqual(expect.any(Number))
    expect(await until(first.token)).toBe(null)
  })

  it('an enrollment code does not verify, and a login code to the same phone is no MFA code', async () => {
    const phone = '+14155550112'
    const device = await userWithSms(t, 'sms-channels@example.com', phone)
    // The last code this phone got was the enrollment's: spent, and for enrolling.
    const enrollment = lastSmsCode(t, phone)
    expect(
      (await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: enrollment })).body.code,
    ).toBe('MFA_INVALID_CODE')
    // A login code sent to the MFA phone (anyone may ask for one) does not pass either.
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })
    const mfaCode = lastSmsCode(t, phone)
    t.clock.advance(31_000)
    expect((await t.request(routes.smsInit, { body: { phoneNumber: phone } })).status).toBe(200)
    const loginCode = lastSmsCode(t, phone)
    if (loginCode !== mfaCode) {
      const login = await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: loginCode })
      expect(login).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
    }
    const right = await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: mfaCode })
    expect(right.status).toBe(200)
  })

  it('without SMS enrolled: 400 MFA_NOT_ENROLLED, and nothing is sent', async () => {
    const device = await newDevice('sms-none@example.com')
    const newest = () => smsTo(t, '')[0]
    const before = newest()
    expect(await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })).toMatchObject({
      status: 400,
      body: { code: 'MFA_NOT_ENROLLED' },
    })
    expect(newest()).toBe(before)
    expect(
      await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: '123456' }),
    ).toMatchObject({ status: 400, body: { code: 'MFA_NOT_ENROLLED' } })
  })
})

describe('storage and removal', () => {
  it('the phone is stored sealed, and answered nowhere', async () => {
    const phone = '+14155550113'
    const device = await userWithSms(t, 'sms-sealed@example.com', phone)
    const [factor] = await factorsOf(device.userId)
    expect(factor?.method).toBe('sms')
    expect(factor?.secret).toEqual(expect.any(String))
    expect(factor?.secret).not.toContain('4155550113')
    const me = await t.request(routes.usersMe, { token: device.token })
    const status = await t.request(routes.mfa, { token: device.token })
    expect(JSON.stringify([me.body, status.body])).not.toContain('4155550113')
  })

  it('unenroll removes SMS; the phone can then be enrolled again', async () => {
    const phone = '+14155550114'
    const device = await userWithSms(t, 'sms-remove@example.com', phone)
    const removed = await mfaCall(t, device, routes.mfaUnenroll, { method: 'sms' })
    expect(removed).toMatchObject({ status: 200, body: { mfa_methods: [] } })
    expect(await factorsOf(device.userId)).toEqual([])
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'enroll', phone_number: phone })
    const again = await mfaCall(t, device, routes.mfaSmsEnroll, {
      phone_number: phone,
      code: lastSmsCode(t, phone),
    })
    expect(again.body.user.mfa_methods).toEqual(['sms'])
  })
})
