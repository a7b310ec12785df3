import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { sms: true } } })
})
afterAll(() => t.close())

/** Latest code the dev outbox got for `phone` (E.164). */
async function lastSmsCode(phone: string, appId?: string | null): Promise<string> {
  const res = await t.request(`${routes.devOutbox}?to=${encodeURIComponent(phone)}`, {
    appId: appId ?? null,
  })
  const code = res.body.messages?.[0]?.code
  if (!code) throw new Error(`No code was sent to ${phone}`)
  return code
}

/** init + authenticate by phone: a logged-in user. */
async function loginByPhone(phone: string) {
  expect((await t.request(routes.smsInit, { body: { phoneNumber: phone } })).status).toBe(200)
  const auth = await t.request(routes.smsAuthenticate, {
    body: { phoneNumber: phone, code: await lastSmsCode(phone) },
  })
  expect(auth.status).toBe(200)
  t.clock.advance(31_000)
  return auth.body
}

describe('SMS login', () => {
  it('signs up a new user with a phone number, then logs the same user in', async () => {
    const init = await t.request(routes.smsInit, { body: { phoneNumber: '+1 (415) 555-2671' } })
    expect(init).toMatchObject({ status: 200, body: { success: true, channel: 'sms' } })
    const outbox = await t.request(`${routes.devOutbox}?to=%2B14155552671`, { appId: null })
    expect(outbox.body.messages[0]).toMatchObject({ to: '+14155552671', channel: 'sms' })
    expect(outbox.body.messages[0].body).toBe(
      `Your Test App login code is ${outbox.body.messages[0].code}. It expires in 10 minutes. Do not share it.`,
    )
    const code = await lastSmsCode('+14155552671')
    const auth = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '14155552671', code },
    })
    expect(auth.status).toBe(200)
    expect(auth.body).toMatchObject({ is_new_user: true, session_update_action: 'set' })
    expect(auth.body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'phone', number: '+14155552671' }),
    ])

    t.clock.advance(31_000)
    await t.request(routes.smsInit, { body: { phoneNumber: '+14155552671' } })
    const again = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+1 415 555 2671', code: await lastSmsCode('+14155552671') },
    })
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: auth.body.user.id } })
  })

  it('answers the same for known and unknown numbers (and whatever disableSignup says)', async () => {
    await loginByPhone('+12015550123')
    const known = await t.request(routes.smsInit, {
      body: { phoneNumber: '+12015550123', disableSignup: true },
    })
    const unknown = await t.request(routes.smsInit, {
      body: { phoneNumber: '+12125550100', disableSignup: true },
    })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(known.body).toEqual(unknown.body)
  })

  it('no-signup refuses an unknown number and consumes the code', async () => {
    await t.request(routes.smsInit, { body: { phoneNumber: '+33612345678', disableSignup: true } })
    const code = await lastSmsCode('+33612345678')
    const users = await t.countRows('users')
    const res = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+33612345678', code, mode: 'no-signup' },
    })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
    expect(await t.countRows('users')).toBe(users)
    const replay = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+33612345678', code },
    })
    expect(replay).toMatchObject({ status: 422, body: { code: 'INVALID_CODE' } })
  })

  it('no-signup logs in an existing user', async () => {
    const first = await loginByPhone('+4915112345678')
    await t.request(routes.smsInit, { body: { phoneNumber: '+4915112345678' } })
    const res = await t.request(routes.smsAuthenticate, {
      body: {
        phoneNumber: '+4915112345678',
        code: await lastSmsCode('+4915112345678'),
        mode: 'no-signup',
      },
    })
    expect(res.body).toMatchObject({ is_new_user: false, user: { id: first.user.id } })
  })

  it('refuses invalid numbers with a clear message, before sending anything', async () => {
    for (const phoneNumber of ['+1 555 555 5555', '+44 12', '+999 1234567']) {
      const res = await t.request(routes.smsInit, { body: { phoneNumber } })
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'INVALID_PHONE_NUMBER', message: 'Please enter a valid phone number.' },
      })
    }
    for (const phoneNumber of ['', 'call me', '+1 415 555 2671 123456789012']) {
      const res = await t.request(routes.smsInit, { body: { phoneNumber } })
      expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
    }
    const res = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+15555555555', code: '123456' },
    })
    expect(res.body.code).toBe('INVALID_PHONE_NUMBER')
  })

  it('refuses SMS login when the app did not switch it on (off by default)', async () => {
    const app = await t.createApp()
    const res = await t.request(routes.smsInit, {
      body: { phoneNumber: '+14155550101' },
      appId: app.id,
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
    const auth = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+14155550101', code: '123456' },
      appId: app.id,
    })
    expect(auth.body.code).toBe('LOGIN_METHOD_NOT_ALLOWED')
  })

  it('the resend cooldown and send cap answer with the spec message', async () => {
    await t.request(routes.smsInit, { body: { phoneNumber: '+14155550199' } })
    const again = await t.request(routes.smsInit, { body: { phoneNumber: '+14155550199' } })
    expect(again).toMatchObject({
      status: 429,
      body: {
        code: 'RESEND_COOLDOWN',
        message: 'Too many requests. Please wait before trying again.',
      },
    })
  })
})

describe('WhatsApp channel', () => {
  it('sends by WhatsApp when the app enables whatsapp_enabled, and binds the code to it', async () => {
    const app = await t.createApp({ login_methods: { sms: true }, whatsapp_enabled: true })
    const config = await t.request(routes.appConfig(app.id), { appId: app.id })
    expect(config.body.whatsapp_enabled).toBe(true)
    const init = await t.request(routes.smsInit, {
      body: { phoneNumber: '+447400123456' },
      appId: app.id,
    })
    expect(init.body).toEqual({ success: true, channel: 'whatsapp' })
    const outbox = await t.request(`${routes.devOutbox}?to=%2B447400123456`, { appId: null })
    expect(outbox.body.messages[0]).toMatchObject({ to: '+447400123456', channel: 'whatsapp' })
    const code = outbox.body.messages[0].code
    // A WhatsApp code is not an SMS code: the channel is part of the code's binding.
    const stored = await t.db
      .selectFrom('otp_codes')
      .select('channel')
      .where('identifier', '=', '+447400123456')
      .execute()
    expect(stored.map((r) => r.channel)).toEqual(['whatsapp'])
    const auth = await t.request(routes.smsAuthenticate, {
      body: { phoneNumber: '+447400123456', code },
      appId: app.id,
    })
    expect(auth.status).toBe(200)
    expect(auth.body.user.linked_accounts[0]).toMatchObject({
      type: 'phone',
      number: '+447400123456',
    })
  })
})

describe('link, unlink, update', () => {
  it('links a phone to an email user; refuses a second phone (one per type)', async () => {
    const user = await t.login('phone-linker@example.com')
    await t.request(routes.smsInit, { body: { phoneNumber: '+14155550102' } })
    const linked = await t.request(routes.smsLink, {
      token: user.token ?? '',
      body: { phoneNumber: '+14155550102', code: await lastSmsCode('+14155550102') },
    })
    expect(linked.status).toBe(200)
    expect(linked.body.linked_accounts.map((a: { type: string }) => a.type).sort()).toEqual([
      'email',
      'phone',
    ])

    await t.request(routes.smsInit, { body: { phoneNumber: '+14155550103' } })
    const second = await t.request(routes.smsLink, {
      token: user.token ?? '',
      body: { phoneNumber: '+14155550103', code: await lastSmsCode('+14155550103') },
    })
    expect(second).toMatchObject({
      status: 400,
      body: {
        code: 'CANNOT_LINK_MORE_OF_TYPE',
        message: 'Only one phone number can be linked to an account.',
      },
    })

    // The phone now logs into the same user.
    t.clock.advance(31_000)
    const byPhone = await loginByPhone('+14155550102')
    expect(byPhone.user.id).toBe(user.user.id)
  })

  it("offers a transfer of another user's only login method, else refuses (ACCOUNT_ALREADY_LINKED)", async () => {
    const owner = await loginByPhone('+14155550104')
    const other = await t.login('phone-thief@example.com')
    const link = async () => {
      await t.request(routes.smsInit, { body: { phoneNumber: '+14155550104' } })
      const res = await t.request(routes.smsLink, {
        token: other.token ?? '',
        body: { phoneNumber: '+14155550104', code: await lastSmsCode('+14155550104') },
      })
      t.clock.advance(31_000)
      return res
    }
    // The phone is the owner's only login method: a transfer is offered
    // (docs/access-control.md; users/transfer.test.ts covers the transfer).
    expect(await link()).toMatchObject({
      status: 400,
      body: { code: 'ACCOUNT_TRANSFER_REQUIRED', details: { nonce: expect.any(String) } },
    })
    // With a second login method the owner keeps the phone: plain refusal.
    await insertAccount(
      t.db,
      t.app.id,
      owner.user.id,
      { type: 'email', identifier: 'phone-keeper@example.com', data: {} },
      t.clock.now(),
    )
    const res = await link()
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'ACCOUNT_ALREADY_LINKED',
        message: 'This account has already been linked to another user.',
      },
    })
  })

  it('link and unlink need a user session', async () => {
    const link = await t.request(routes.smsLink, {
      body: { phoneNumber: '+14155550105', code: '123456' },
    })
    expect(link).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    const unlink = await t.request(routes.smsUnlink, { body: { phoneNumber: '+14155550105' } })
    expect(unlink.status).toBe(401)
  })

  it('unlinks a phone, but never the last login method', async () => {
    const user = await loginByPhone('+14155550106')
    const last = await t.request(routes.smsUnlink, {
      token: user.token,
      body: { phoneNumber: '+14155550106' },
    })
    expect(last).toMatchObject({ status: 400, body: { code: 'CANNOT_UNLINK_LAST_ACCOUNT' } })

    await t.request(routes.emailInit, { body: { email: 'phone-owner@example.com' } })
    await t.request(routes.emailLink, {
      token: user.token,
      body: { email: 'phone-owner@example.com', code: await t.lastCode('phone-owner@example.com') },
    })
    const res = await t.request(routes.smsUnlink, {
      token: user.token,
      body: { phoneNumber: '+1 415-555-0106' },
    })
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
    const again = await t.request(routes.smsUnlink, {
      token: user.token,
      body: { phoneNumber: '+14155550106' },
    })
    expect(again).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_LINKED' } })
  })

  it('updates the phone with a code sent to the new number', async () => {
    const user = await loginByPhone('+14155550107')
    await t.request(routes.smsInit, { body: { phoneNumber: '+14155550108' } })
    const code = await lastSmsCode('+14155550108')
    const wrong = await t.request(routes.smsUpdate, {
      token: user.token,
      body: { old_phone_number: '+14155550199', new_phone_number: '+14155550108', code },
    })
    expect(wrong).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_LINKED' } })
    const res = await t.request(routes.smsUpdate, {
      token: user.token,
      body: { old_phone_number: '+14155550107', new_phone_number: '+14155550108', code },
    })
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts).toEqual([
      expect.objectContaining({ type: 'phone', number: '+14155550108' }),
    ])
    // The old number no longer logs this user in; the new one does.
    t.clock.advance(31_000)
    const byNew = await loginByPhone('+14155550108')
    expect(byNew.user.id).toBe(user.user.id)
    const byOld = await loginByPhone('+14155550107')
    expect(byOld.is_new_user).toBe(true)
  })

  it('refuses an update to a number another user has', async () => {
    await loginByPhone('+14155550109')
    const user = await loginByPhone('+14155550110')
    await t.request(routes.smsInit, { body: { phoneNumber: '+14155550109' } })
    const res = await t.request(routes.smsUpdate, {
      token: user.token,
      body: {
        old_phone_number: '+14155550110',
        new_phone_number: '+14155550109',
        code: await lastSmsCode('+14155550109'),
      },
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'ACCOUNT_ALREADY_LINKED' } })
  })

  it('refuses an update by a user without a phone number (spec 02 §5)', async () => {
    const user = await t.login('no-phone@example.com')
    await t.request(routes.smsInit, { body: { phoneNumber: '+14155550111' } })
    const res = await t.request(routes.smsUpdate, {
      token: user.token ?? '',
      body: {
        old_phone_number: '+14155550112',
        new_phone_number: '+14155550111',
        code: await lastSmsCode('+14155550111'),
      },
    })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'NO_PHONE_TO_UPDATE',
        message: 'User is required to have a phone number to update it.',
      },
    })
  })
})
