import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  anotherSession,
  lastSmsCode,
  type MfaDevice,
  mfaCall,
  smsTo,
  userWithSms,
} from '../test/mfa.ts'

// Security bar 8, spec 02 §6 ("SMS MFA is disabled if the user's SMS is
// already an auth method"): the phone a user logs in with cannot also be
// their SMS factor — whoever receives its codes would hold both the login
// and the second factor. Refused both ways: enrolling the login phone as the
// factor, and adding the factor's phone as a login.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { login_methods: { email: true, sms: true }, mfa_methods: ['sms'] },
  })
})
afterAll(() => t.close())

/** Links `phone` as an SMS login of `device`'s user (a login code to the phone, then sms/link). */
async function linkPhone(device: MfaDevice, phone: string) {
  const init = await t.request(routes.smsInit, { body: { phoneNumber: phone } })
  if (init.status !== 200) throw new Error(`sms init failed: ${JSON.stringify(init.body)}`)
  return t.request(routes.smsLink, {
    token: device.token,
    body: { phoneNumber: phone, code: lastSmsCode(t, phone) },
  })
}

const phoneAccountsOf = async (userId: string) =>
  (
    await t.db
      .selectFrom('linked_accounts')
      .select('identifier')
      .where('user_id', '=', userId)
      .where('type', '=', 'phone')
      .execute()
  ).map((a) => a.identifier)

it('the login phone, however it is written, is refused as the factor: 400 MFA_SMS_PHONE_IS_LOGIN, and no code is sent', async () => {
  const device = await anotherSession(t, 'login-phone@example.com', await createTestEnclaveKey())
  const phone = '+14155550120'
  expect((await linkPhone(device, phone)).status).toBe(200)
  const sent = smsTo(t, phone).length
  for (const written of [phone, '+1 415-555-0120', '1 (415) 555 0120']) {
    const init = await mfaCall(t, device, routes.mfaSmsInit, {
      action: 'enroll',
      phone_number: written,
    })
    expect(init).toMatchObject({
      status: 400,
      body: {
        code: 'MFA_SMS_PHONE_IS_LOGIN',
        message: 'This phone number is a login method',
      },
    })
  }
  expect(smsTo(t, phone).length).toBe(sent)
  // Confirming with a code (the login code, say) is refused the same way, before the code counts.
  const enroll = await mfaCall(t, device, routes.mfaSmsEnroll, {
    phone_number: phone,
    code: lastSmsCode(t, phone),
  })
  expect(enroll).toMatchObject({ status: 400, body: { code: 'MFA_SMS_PHONE_IS_LOGIN' } })
  const rows = await t.db
    .selectFrom('mfa_factors')
    .select('id')
    .where('user_id', '=', device.userId)
    .execute()
  expect(rows).toEqual([])
  const attempts = await t.db
    .selectFrom('mfa_attempts')
    .selectAll()
    .where('user_id', '=', device.userId)
    .execute()
  expect(attempts).toEqual([])
})

it('another phone of the same user is enrolled as usual', async () => {
  const device = await anotherSession(t, 'two-phones@example.com', await createTestEnclaveKey())
  expect((await linkPhone(device, '+14155550121')).status).toBe(200)
  const factor = '+14155550122'
  await mfaCall(t, device, routes.mfaSmsInit, { action: 'enroll', phone_number: factor })
  const res = await mfaCall(t, device, routes.mfaSmsEnroll, {
    phone_number: factor,
    code: lastSmsCode(t, factor),
  })
  expect(res.status).toBe(200)
  expect(res.body.user.mfa_methods).toEqual(['sms'])
})

it('the factor’s phone cannot then be linked as a login, nor become the login phone by an update', async () => {
  const factor = '+14155550123'
  const device = await userWithSms(t, 'factor-phone@example.com', factor)
  const link = await linkPhone(device, factor)
  expect(link).toMatchObject({ status: 400, body: { code: 'MFA_SMS_PHONE_IS_LOGIN' } })
  expect(await phoneAccountsOf(device.userId)).toEqual([])

  const login = '+14155550124'
  t.clock.advance(31_000)
  expect((await linkPhone(device, login)).status).toBe(200)
  t.clock.advance(31_000)
  await t.request(routes.smsInit, { body: { phoneNumber: factor } })
  const update = await t.request(routes.smsUpdate, {
    token: device.token,
    body: { old_phone_number: login, new_phone_number: factor, code: lastSmsCode(t, factor) },
  })
  expect(update).toMatchObject({ status: 400, body: { code: 'MFA_SMS_PHONE_IS_LOGIN' } })
  expect(await phoneAccountsOf(device.userId)).toEqual([login])
})
