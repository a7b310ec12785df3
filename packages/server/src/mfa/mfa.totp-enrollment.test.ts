import { MFA_ENROLLMENT_TTL_MS, routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { updateAppSettings } from '../apps/service.ts'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { totpCode, userWithTotp, verifyTotp, wrongTotpCode } from '../test/mfa.ts'

// Issue 18: enrolling an authenticator app (spec 02 "Authenticator
// enrollment", §3 "TOTP enrollment info: secret, authUrl", §4 "TOTP starts
// enrollment to obtain the secret, then code verify"), and what the user and
// the app config say of it afterwards.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
})
afterAll(() => t.close())

async function signedIn(email: string) {
  const key = await createTestEnclaveKey()
  const auth = await t.login(email, { enclaveKey: key })
  const token = auth.token ?? ''
  const call = (path: string, body: object) =>
    t.enclaveRequest(path, { token, body, enclaveKey: key })
  return { token, key, call, userId: auth.user.id }
}

describe('starting a setup', () => {
  it('answers the base32 secret and an otpauth:// URI: issuer the app name, label the email', async () => {
    const { call } = await signedIn('Scan.Me@Example.com')
    const res = await call(routes.mfaTotpInit, {})
    expect(res.status).toBe(200)
    expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/)
    const url = new URL(res.body.auth_url)
    expect(url.protocol).toBe('otpauth:')
    expect(url.host).toBe('totp')
    expect(decodeURIComponent(url.pathname)).toBe('/Test App:scan.me@example.com')
    expect(url.searchParams.get('secret')).toBe(res.body.secret)
    expect(url.searchParams.get('issuer')).toBe('Test App')
  })

  it('an app that does not offer the authenticator app refuses it: 403 MFA_METHOD_NOT_ALLOWED', async () => {
    const other = await t.createApp({ mfa_methods: ['sms'] })
    const key = await createTestEnclaveKey()
    const auth = await t.login('no-totp@example.com', { appId: other.id, enclaveKey: key })
    const res = await t.enclaveRequest(routes.mfaTotpInit, {
      token: auth.token ?? '',
      body: {},
      enclaveKey: key,
      appId: other.id,
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'MFA_METHOD_NOT_ALLOWED' } })
    const factors = await t.db
      .selectFrom('mfa_factors')
      .select('id')
      .where('user_id', '=', auth.user.id)
      .execute()
    expect(factors).toEqual([])
  })

  it('a restart replaces the pending secret: the old one no longer enrolls', async () => {
    const { call } = await signedIn('restart@example.com')
    const first = (await call(routes.mfaTotpInit, {})).body.secret
    const second = (await call(routes.mfaTotpInit, {})).body.secret
    expect(second).not.toBe(first)
    const stale = await call(routes.mfaTotpEnroll, { code: await totpCode(first, t.clock.now()) })
    expect(stale).toMatchObject({ status: 422, body: { code: 'MFA_INVALID_CODE' } })
    const fresh = await call(routes.mfaTotpEnroll, { code: await totpCode(second, t.clock.now()) })
    expect(fresh.status).toBe(200)
  })
})

describe('confirming it', () => {
  it('a wrong code is MFA_INVALID_CODE; the right one enables the method and verifies the session', async () => {
    const { call, token } = await signedIn('confirm@example.com')
    const { secret } = (await call(routes.mfaTotpInit, {})).body
    const wrong = await call(routes.mfaTotpEnroll, {
      code: await wrongTotpCode(secret, t.clock.now()),
    })
    expect(wrong).toMatchObject({
      status: 422,
      body: { code: 'MFA_INVALID_CODE', message: 'The code you entered is not valid' },
    })
    const now = t.clock.now()
    const res = await call(routes.mfaTotpEnroll, { code: await totpCode(secret, now) })
    expect(res.status).toBe(200)
    expect(res.body.user.mfa_methods).toEqual(['totp'])
    expect(res.body.verification).toEqual({
      method: 'totp',
      verified_at: Math.floor(now / 1000),
      expires_at: Math.floor(now / 1000) + 15 * 60,
    })
    // The user object and the status route say so too.
    const me = await t.request(routes.usersMe, { token })
    expect(me.body.user.mfa_methods).toEqual(['totp'])
    const status = await t.request(routes.mfa, { token })
    expect(status.body).toEqual({
      factors: [{ method: 'totp', enrolled_at: Math.floor(now / 1000) }],
      verified_until: Math.floor(now / 1000) + 15 * 60,
    })
  })

  it('a code that is not six digits is refused before anything is counted', async () => {
    const { call } = await signedIn('shape@example.com')
    await call(routes.mfaTotpInit, {})
    for (const code of ['12345', '1234567', 'abcdef', ''])
      expect((await call(routes.mfaTotpEnroll, { code })).status).toBe(400)
  })

  it(`a setup not confirmed within ${MFA_ENROLLMENT_TTL_MS / 60_000} minutes expires`, async () => {
    const { call } = await signedIn('late@example.com')
    const { secret } = (await call(routes.mfaTotpInit, {})).body
    t.clock.advance(MFA_ENROLLMENT_TTL_MS)
    const res = await call(routes.mfaTotpEnroll, { code: await totpCode(secret, t.clock.now()) })
    expect(res).toMatchObject({ status: 400, body: { code: 'MFA_ENROLLMENT_EXPIRED' } })
  })

  it('confirming without a setup is MFA_ENROLLMENT_EXPIRED', async () => {
    const { call } = await signedIn('no-setup@example.com')
    const res = await call(routes.mfaTotpEnroll, { code: '123456' })
    expect(res).toMatchObject({ status: 400, body: { code: 'MFA_ENROLLMENT_EXPIRED' } })
  })

  it('a second setup of the same method, once verified, is MFA_ALREADY_ENROLLED', async () => {
    const { device, secret } = await userWithTotp(t, 'twice@example.com')
    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    const res = await t.enclaveRequest(routes.mfaTotpInit, {
      token: device.token,
      body: {},
      enclaveKey: device.key,
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'MFA_ALREADY_ENROLLED' } })
  })
})

describe('the app setting', () => {
  it('the app config tells the client which methods the app offers', async () => {
    const res = await t.request(routes.appConfig(t.app.id))
    expect(res.body.mfa_methods).toEqual(['totp'])
  })

  it('taking a method off the app keeps enrolled factors enforced and verifiable', async () => {
    const app = await t.createApp({ mfa_methods: ['totp'] })
    const key = await createTestEnclaveKey()
    const auth = await t.login('kept@example.com', { appId: app.id, enclaveKey: key })
    const call = (path: string, body: object) =>
      t.enclaveRequest(path, { token: auth.token ?? '', body, enclaveKey: key, appId: app.id })
    const { secret } = (await call(routes.mfaTotpInit, {})).body
    expect(
      (await call(routes.mfaTotpEnroll, { code: await totpCode(secret, t.clock.now()) })).status,
    ).toBe(200)
    await updateAppSettings(t.db, app.id, { mfa_methods: [] })
    t.server.services.apps.invalidate(app.id)
    t.clock.advance(15 * 60_000 + TOTP_PERIOD_S * 1000)
    const refused = await call(routes.usersDelete, {})
    expect(refused).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })
    const verified = await call(routes.mfaVerify, {
      method: 'totp',
      code: await totpCode(secret, t.clock.now()),
    })
    expect(verified.status).toBe(200)
  })
})
