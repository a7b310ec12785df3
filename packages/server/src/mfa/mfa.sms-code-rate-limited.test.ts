import {
  CODE_RESEND_COOLDOWN_MS,
  MFA_ATTEMPT_WINDOW_MS,
  MFA_MAX_CODE_ATTEMPTS,
  routes,
} from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultRateLimits } from '../config.ts'
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

// Security bars 1–5 for SMS MFA codes, issue 18: they are the login codes'
// machinery (auth/otp.ts) — the resend cooldown, the per-number send cap
// (whoever asks: a phone is not flooded by switching accounts), one code out
// of a concurrent burst — and each code checked also counts against the
// user's MFA attempts (5 per 15 minutes), under a concurrent burst too, on
// SQLite and PostgreSQL alike.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['sms'] } })
})
afterAll(() => t.close())

const newDevice = async (email: string) => anotherSession(t, email, await createTestEnclaveKey())
const enrollInit = (device: MfaDevice, phone: string) =>
  mfaCall(t, device, routes.mfaSmsInit, { action: 'enroll', phone_number: phone })

describe('sending', () => {
  it(`a second code within ${CODE_RESEND_COOLDOWN_MS / 1000} s is 429 RESEND_COOLDOWN, to a new phone and to the enrolled one`, async () => {
    const device = await newDevice('cooldown@example.com')
    const phone = '+14155550130'
    expect((await enrollInit(device, phone)).status).toBe(200)
    t.clock.advance(CODE_RESEND_COOLDOWN_MS - 1)
    const early = await enrollInit(device, phone)
    expect(early).toMatchObject({ status: 429, body: { code: 'RESEND_COOLDOWN', retry_after: 1 } })
    expect(smsTo(t, phone)).toHaveLength(1)
    t.clock.advance(1)
    expect((await enrollInit(device, phone)).status).toBe(200)

    const enrolled = await userWithSms(t, 'cooldown-verify@example.com', '+14155550131')
    expect((await mfaCall(t, enrolled, routes.mfaSmsInit, { action: 'verify' })).status).toBe(200)
    const again = await mfaCall(t, enrolled, routes.mfaSmsInit, { action: 'verify' })
    expect(again).toMatchObject({ status: 429, body: { code: 'RESEND_COOLDOWN' } })
  })

  it('20 parallel sends to one phone: exactly one code is stored and texted', async () => {
    const device = await newDevice('burst-send@example.com')
    const phone = '+14155550132'
    const results = await Promise.all(Array.from({ length: 20 }, () => enrollInit(device, phone)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200))
      expect(r).toMatchObject({ status: 429, body: { code: 'RESEND_COOLDOWN' } })
    const codes = await t.db
      .selectFrom('otp_codes')
      .select('id')
      .where('identifier', '=', phone)
      .execute()
    expect(codes).toHaveLength(1)
    expect(smsTo(t, phone)).toHaveLength(1)
  })

  it('the per-number cap counts every user’s sends to that phone: 429 TOO_MANY_REQUESTS past it', async () => {
    const { limit } = defaultRateLimits.codeSendsPerIdentifier
    const phone = '+14155550133'
    const alice = await newDevice('cap-alice@example.com')
    const bob = await newDevice('cap-bob@example.com')
    for (let i = 0; i < limit; i++) {
      expect((await enrollInit(i % 2 === 0 ? alice : bob, phone)).status).toBe(200)
      t.clock.advance(CODE_RESEND_COOLDOWN_MS)
    }
    const refused = await enrollInit(alice, phone)
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    expect(refused.body.retry_after).toBeGreaterThan(0)
    expect(smsTo(t, phone)).toHaveLength(limit)
  })
})

describe('checking', () => {
  it(`${MFA_MAX_CODE_ATTEMPTS} wrong SMS codes lock MFA for the user, even the right code, until the window ends`, async () => {
    const phone = '+14155550134'
    const device = await userWithSms(t, 'sms-locked@example.com', phone)
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })
    const code = lastSmsCode(t, phone)
    const wrong = code === '000000' ? '000001' : '000000'
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++) {
      const res = await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: wrong })
      expect(res).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
    }
    const right = await mfaCall(t, device, routes.mfaVerify, { method: 'sms', code })
    expect(right).toMatchObject({
      status: 429,
      body: { code: 'MFA_MAX_ATTEMPTS', retry_after: MFA_ATTEMPT_WINDOW_MS / 1000 },
    })
    // At the window's end a new code (the old one has expired meanwhile) passes.
    t.clock.advance(MFA_ATTEMPT_WINDOW_MS)
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })
    const fresh = await mfaCall(t, device, routes.mfaVerify, {
      method: 'sms',
      code: lastSmsCode(t, phone),
    })
    expect(fresh.status).toBe(200)
  })

  it('confirming a setup counts as well', async () => {
    const device = await newDevice('sms-setup-locked@example.com')
    const phone = '+14155550135'
    await enrollInit(device, phone)
    const code = lastSmsCode(t, phone)
    const wrong = code === '000000' ? '000001' : '000000'
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++)
      await mfaCall(t, device, routes.mfaSmsEnroll, { phone_number: phone, code: wrong })
    const right = await mfaCall(t, device, routes.mfaSmsEnroll, { phone_number: phone, code })
    expect(right).toMatchObject({ status: 429, body: { code: 'MFA_MAX_ATTEMPTS' } })
    const factors = await t.db
      .selectFrom('mfa_factors')
      .select('id')
      .where('user_id', '=', device.userId)
      .execute()
    expect(factors).toEqual([])
  })

  it(`20 parallel wrong codes: exactly ${MFA_MAX_CODE_ATTEMPTS} are compared, the rest refused`, async () => {
    const phone = '+14155550136'
    const device = await userWithSms(t, 'sms-burst@example.com', phone)
    await mfaCall(t, device, routes.mfaSmsInit, { action: 'verify' })
    const code = lastSmsCode(t, phone)
    const wrong = code === '000000' ? '000001' : '000000'
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        mfaCall(t, device, routes.mfaVerify, { method: 'sms', code: wrong }),
      ),
    )
    const codes = results.map((r) => r.body.code)
    expect(codes.filter((c) => c === 'MFA_INVALID_CODE')).toHaveLength(MFA_MAX_CODE_ATTEMPTS)
    expect(codes.filter((c) => c === 'MFA_MAX_ATTEMPTS')).toHaveLength(20 - MFA_MAX_CODE_ATTEMPTS)
    const row = await t.db
      .selectFrom('otp_codes')
      .select('attempts')
      .where('identifier', '=', phone)
      .where('consumed_at', 'is', null)
      .executeTakeFirstOrThrow()
    expect(row.attempts).toBe(MFA_MAX_CODE_ATTEMPTS)
  })
})
