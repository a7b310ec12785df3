import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  anotherSession,
  type MfaDevice,
  sessionIdOf,
  userWithTotp,
  verifyTotp,
} from '../test/mfa.ts'
import { hdBody } from '../test/wallets.ts'

// Security bar 38, spec 02 §4, issue 18: factor changes need a fresh
// verification once the user has a factor. Removing one without it is 403
// MFA_REQUIRED and the factor stays; so is starting the setup of another
// method ("Choosing a method first requires MFA verification").
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp', 'sms'] } })
})
afterAll(() => t.close())

const call = (as: MfaDevice, path: string, body: object) =>
  t.enclaveRequest(path, { token: as.token, body, enclaveKey: as.key })

const methodsOf = async (userId: string) =>
  (
    await t.db.selectFrom('mfa_factors').select('method').where('user_id', '=', userId).execute()
  ).map((r) => r.method)

describe('removing a factor', () => {
  it('without a fresh verification: 403 MFA_REQUIRED, and the factor stays', async () => {
    const { device } = await userWithTotp(t, 'keep@example.com')
    t.clock.advance(MFA_VERIFICATION_TTL_MS)
    expect(await call(device, routes.mfaUnenroll, { method: 'totp' })).toMatchObject({
      status: 403,
      body: { code: 'MFA_REQUIRED' },
    })
    expect(await methodsOf(device.userId)).toEqual(['totp'])
  })

  it('another session’s verification does not count', async () => {
    const email = 'elsewhere@example.com'
    const { device, secret } = await userWithTotp(t, email)
    const other = await anotherSession(t, email, await createTestEnclaveKey())
    expect((await verifyTotp(t, other, secret)).status).toBe(200)
    t.clock.advance(MFA_VERIFICATION_TTL_MS - 60_000)
    expect((await call(device, routes.mfaUnenroll, { method: 'totp' })).status).toBe(403)
    expect((await call(other, routes.mfaUnenroll, { method: 'totp' })).status).toBe(200)
  })

  it('after verifying: removed, and the key routes no longer ask for MFA', async () => {
    const { device, secret } = await userWithTotp(t, 'remove@example.com')
    const wallet = hdBody()
    expect((await call(device, routes.embeddedWalletsCreate, wallet)).status).toBe(200)
    t.clock.advance(MFA_VERIFICATION_TTL_MS)
    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    const res = await call(device, routes.mfaUnenroll, { method: 'totp' })
    expect(res).toMatchObject({ status: 200, body: { mfa_methods: [] } })
    expect(await methodsOf(device.userId)).toEqual([])
    t.clock.advance(MFA_VERIFICATION_TTL_MS)
    const share = await call(device, routes.embeddedWalletsAuthShare, {
      entropy_id: wallet.entropy_id,
    })
    expect(share.status).toBe(200)
  })

  it('a method the user does not have: 400 MFA_NOT_ENROLLED', async () => {
    const key = await createTestEnclaveKey()
    const auth = await t.login('nothing@example.com', { enclaveKey: key })
    const as = { token: auth.token ?? '', key } as MfaDevice
    expect(await call(as, routes.mfaUnenroll, { method: 'totp' })).toMatchObject({
      status: 400,
      body: { code: 'MFA_NOT_ENROLLED' },
    })
  })
})

describe('enrolling another method', () => {
  // SMS enrollment is not built yet: a user's SMS factor is written directly,
  // as its enrollment will write it, to show that TOTP setup then asks first.
  it('a user with a factor must verify before setting up another method', async () => {
    const key = await createTestEnclaveKey()
    const auth = await t.login('second-method@example.com', { enclaveKey: key })
    const as = { token: auth.token ?? '', key } as MfaDevice
    const now = t.clock.now()
    await t.db
      .insertInto('mfa_factors')
      .values({
        id: 'sms-factor',
        app_id: t.app.id,
        user_id: auth.user.id,
        method: 'sms',
        secret: null,
        enabled: 1,
        last_used_step: null,
        created_at: now,
        enabled_at: now,
        expires_at: null,
      })
      .execute()
    const refused = await call(as, routes.mfaTotpInit, {})
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'MFA_REQUIRED', details: { mfa_methods: ['sms'] } },
    })
    expect(await methodsOf(auth.user.id)).toEqual(['sms'])
    // Verified (as an SMS verification will record it), the setup starts.
    const sessionId = sessionIdOf(as.token)
    await t.db
      .insertInto('mfa_verifications')
      .values({
        session_id: sessionId,
        user_id: auth.user.id,
        method: 'sms',
        verified_at: now,
        expires_at: now + MFA_VERIFICATION_TTL_MS,
      })
      .execute()
    expect((await call(as, routes.mfaTotpInit, {})).status).toBe(200)
  })

  it('the first factor needs no verification (there is nothing to verify with)', async () => {
    const key = await createTestEnclaveKey()
    const auth = await t.login('first-factor@example.com', { enclaveKey: key })
    const as = { token: auth.token ?? '', key } as MfaDevice
    expect((await call(as, routes.mfaTotpInit, {})).status).toBe(200)
  })
})
