import { MFA_MAX_CODE_ATTEMPTS, MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  failureReason,
  PASSKEY_APP_SETTINGS,
  passkeyInit,
  TEST_RP_ID,
} from '../auth/passkey/testing.ts'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import {
  anotherSession,
  linkPasskey,
  mfaCall,
  userWithMfaPasskey,
  verifyPasskey,
} from '../test/mfa.ts'

// Issue 18, spec 02 "Enable passkeys", "Passkey verification": some of the
// user's linked passkeys are enabled for MFA; verifying is a WebAuthn
// assertion from one of them against a single-use challenge bound to the
// user, with the login ceremony's checks, counted against the user's MFA
// attempts; removing them from MFA (or from the account) ends the factor
// with the last one.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { ...PASSKEY_APP_SETTINGS, mfa_methods: ['passkey'] } })
})
afterAll(() => t.close())

const newDevice = async (email: string) => anotherSession(t, email, await createTestEnclaveKey())

const passkeyOf = async (credentialId: string) =>
  t.db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('type', '=', 'passkey')
    .where('identifier', '=', credentialId)
    .executeTakeFirst()

const inMfa = async (credentialId: string) => {
  const row = await passkeyOf(credentialId)
  return row ? JSON.parse(row.data).enrolled_in_mfa === true : undefined
}

const factorOf = (userId: string) =>
  t.db
    .selectFrom('mfa_factors')
    .select(['method', 'enabled', 'secret'])
    .where('user_id', '=', userId)
    .execute()

describe('enabling passkeys', () => {
  it('flags the passkeys, enables the factor, and does not verify the session', async () => {
    const device = await newDevice('pk-enroll@example.com')
    const chosen = await linkPasskey(t, device)
    const other = await linkPasskey(t, device)
    const res = await mfaCall(t, device, routes.mfaPasskeyEnroll, { credential_ids: [chosen.id] })
    expect(res.status).toBe(200)
    expect(res.body.verification).toBe(null)
    expect(res.body.user.mfa_methods).toEqual(['passkey'])
    const flags = Object.fromEntries(
      res.body.user.linked_accounts
        .filter((a: { type: string }) => a.type === 'passkey')
        .map((a: { credential_id: string; enrolled_in_mfa: boolean }) => [
          a.credential_id,
          a.enrolled_in_mfa,
        ]),
    )
    expect(flags).toEqual({ [chosen.id]: true, [other.id]: false })
    expect(await factorOf(device.userId)).toEqual([{ method: 'passkey', enabled: 1, secret: null }])
    expect((await t.request(routes.mfa, { token: device.token })).body.verified_until).toBe(null)
  })

  it('an id that is not one of the user’s passkeys is 400 MFA_PASSKEY_NOT_LINKED, and nothing changes', async () => {
    const device = await newDevice('pk-not-mine@example.com')
    const mine = await linkPasskey(t, device)
    const stranger = await newDevice('pk-stranger@example.com')
    const theirs = await linkPasskey(t, stranger)
    for (const ids of [[theirs.id], [mine.id, 'bm90LWEtcGFzc2tleQ']]) {
      const res = await mfaCall(t, device, routes.mfaPasskeyEnroll, { credential_ids: ids })
      expect(res).toMatchObject({ status: 400, body: { code: 'MFA_PASSKEY_NOT_LINKED' } })
    }
    expect([await inMfa(mine.id), await inMfa(theirs.id)]).toEqual([false, false])
    expect(await factorOf(device.userId)).toEqual([])
  })

  it('an app that does not offer passkeys for MFA refuses them: 403 MFA_METHOD_NOT_ALLOWED', async () => {
    const other = await t.createApp({ ...PASSKEY_APP_SETTINGS, mfa_methods: ['totp'] })
    const key = await createTestEnclaveKey()
    const auth = await t.login('pk-not-offered@example.com', { appId: other.id, enclaveKey: key })
    const res = await t.enclaveRequest(routes.mfaPasskeyEnroll, {
      token: auth.token ?? '',
      body: { credential_ids: ['Y3JlZA'] },
      enclaveKey: key,
      appId: other.id,
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'MFA_METHOD_NOT_ALLOWED' } })
  })

  it('once the user has MFA, enabling another passkey needs a fresh verification', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-second@example.com')
    const second = await linkPasskey(t, device)
    const refused = await mfaCall(t, device, routes.mfaPasskeyEnroll, {
      credential_ids: [second.id],
    })
    expect(refused).toMatchObject({
      status: 403,
      body: { code: 'MFA_REQUIRED', details: { mfa_methods: ['passkey'] } },
    })
    expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
    const res = await mfaCall(t, device, routes.mfaPasskeyEnroll, { credential_ids: [second.id] })
    expect(res.status).toBe(200)
    expect(await inMfa(second.id)).toBe(true)
  })
})

describe('verifying with a passkey', () => {
  it('init offers only the MFA passkeys, on the app’s relying party, user verification required', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-options@example.com')
    await linkPasskey(t, device)
    const init = await mfaCall(t, device, routes.mfaPasskeyInit, {})
    expect(init.status).toBe(200)
    expect(init.body.relying_party).toBe(TEST_RP_ID)
    expect(init.body.options).toMatchObject({
      rpId: TEST_RP_ID,
      userVerification: 'required',
      allowCredentials: [{ id: authenticator.id, type: 'public-key' }],
    })
    expect(init.body.options.allowCredentials).toHaveLength(1)
  })

  it('an assertion opens this session’s window and records the signCount and last use', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-verify@example.com')
    t.clock.advance(60_000)
    const now = t.clock.now()
    const res = await verifyPasskey(t, device, authenticator)
    expect(res).toMatchObject({
      status: 200,
      body: {
        method: 'passkey',
        verified_at: Math.floor(now / 1000),
        expires_at: Math.floor((now + MFA_VERIFICATION_TTL_MS) / 1000),
      },
    })
    const row = await passkeyOf(authenticator.id)
    expect(JSON.parse(row?.data ?? '{}').counter).toBe(authenticator.signCount)
    expect(Number(row?.latest_verified_at)).toBe(now)
  })

  it('the challenge works once: a replayed assertion is refused', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-replay@example.com')
    const init = await mfaCall(t, device, routes.mfaPasskeyInit, {})
    const body = {
      method: 'passkey',
      relying_party: init.body.relying_party,
      authenticator_response: authenticator.get({
        rpId: init.body.relying_party,
        challenge: init.body.options.challenge,
        origin: TEST_ORIGIN,
      }),
    }
    expect((await mfaCall(t, device, routes.mfaVerify, body)).status).toBe(200)
    const replay = await mfaCall(t, device, routes.mfaVerify, body)
    expect(replay).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
    expect(failureReason(replay)).toBe('challenge_used')
  })

  it('the challenge is bound to the user: another user’s, or a login challenge, is unknown', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-bound@example.com')
    const { device: other } = await userWithMfaPasskey(t, 'pk-bound-other@example.com')
    const theirs = await mfaCall(t, other, routes.mfaPasskeyInit, {})
    const login = await passkeyInit(t, routes.passkeyAuthenticateInit)
    for (const init of [theirs.body, login]) {
      const res = await mfaCall(t, device, routes.mfaVerify, {
        method: 'passkey',
        relying_party: init.relying_party,
        authenticator_response: authenticator.get({
          rpId: init.relying_party,
          challenge: init.options.challenge,
          origin: TEST_ORIGIN,
        }),
      })
      expect(failureReason(res)).toBe('challenge_unknown')
    }
  })

  it('a passkey of the user that is not in MFA does not verify', async () => {
    const { device } = await userWithMfaPasskey(t, 'pk-not-in-mfa@example.com')
    const plain = await linkPasskey(t, device)
    const res = await verifyPasskey(t, device, plain)
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
    expect(failureReason(res)).toBe('not_enrolled_in_mfa')
  })

  it(`refused assertions count against the MFA attempts: after ${MFA_MAX_CODE_ATTEMPTS}, even a good one is refused`, async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-attempts@example.com')
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++) {
      const res = await verifyPasskey(t, device, authenticator, { signature: 'corrupt' })
      expect(failureReason(res)).toBe('signature')
    }
    const good = await verifyPasskey(t, device, authenticator)
    expect(good).toMatchObject({ status: 429, body: { code: 'MFA_MAX_ATTEMPTS' } })
  })

  it('without MFA passkeys: 400 MFA_NOT_ENROLLED', async () => {
    const device = await newDevice('pk-none@example.com')
    const plain = await linkPasskey(t, device)
    expect(await mfaCall(t, device, routes.mfaPasskeyInit, {})).toMatchObject({
      status: 400,
      body: { code: 'MFA_NOT_ENROLLED' },
    })
    const res = await mfaCall(t, device, routes.mfaVerify, {
      method: 'passkey',
      relying_party: TEST_RP_ID,
      authenticator_response: plain.get({
        rpId: TEST_RP_ID,
        challenge: 'AAAA',
        origin: TEST_ORIGIN,
      }),
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'MFA_NOT_ENROLLED' } })
  })
})

describe('removing passkeys from MFA', () => {
  it('one at a time: the factor lasts while one passkey is left in MFA; both stay linked', async () => {
    const { device, authenticator: first } = await userWithMfaPasskey(t, 'pk-remove@example.com')
    expect((await verifyPasskey(t, device, first)).status).toBe(200)
    const second = await linkPasskey(t, device)
    await mfaCall(t, device, routes.mfaPasskeyEnroll, { credential_ids: [second.id] })

    const one = await mfaCall(t, device, routes.mfaUnenroll, {
      method: 'passkey',
      credential_id: first.id,
    })
    expect(one).toMatchObject({ status: 200, body: { mfa_methods: ['passkey'] } })
    expect([await inMfa(first.id), await inMfa(second.id)]).toEqual([false, true])
    const last = await mfaCall(t, device, routes.mfaUnenroll, {
      method: 'passkey',
      credential_id: second.id,
    })
    expect(last).toMatchObject({ status: 200, body: { mfa_methods: [] } })
    expect([await inMfa(first.id), await inMfa(second.id)]).toEqual([false, false])
    expect(await factorOf(device.userId)).toEqual([])
  })

  it('all at once, and with remove_for_login unlinked too, in one go; other passkeys stay', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-remove-all@example.com')
    expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
    const second = await linkPasskey(t, device)
    await mfaCall(t, device, routes.mfaPasskeyEnroll, { credential_ids: [second.id] })
    const plain = await linkPasskey(t, device)
    const res = await mfaCall(t, device, routes.mfaUnenroll, {
      method: 'passkey',
      remove_for_login: true,
    })
    expect(res).toMatchObject({ status: 200, body: { mfa_methods: [] } })
    expect(await passkeyOf(authenticator.id)).toBeUndefined()
    expect(await passkeyOf(second.id)).toBeUndefined()
    expect(await inMfa(plain.id)).toBe(false)
    expect(await factorOf(device.userId)).toEqual([])
  })

  it('a passkey that is the last login method stays, in MFA, and so does the factor', async () => {
    const email = 'pk-last-login@example.com'
    const { device, authenticator } = await userWithMfaPasskey(t, email)
    expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
    const unlinkEmail = await t.request(routes.emailUnlink, {
      token: device.token,
      body: { address: email },
    })
    expect(unlinkEmail.status).toBe(200)
    const res = await mfaCall(t, device, routes.mfaUnenroll, {
      method: 'passkey',
      credential_id: authenticator.id,
      remove_for_login: true,
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'CANNOT_UNLINK_LAST_ACCOUNT' } })
    expect(await inMfa(authenticator.id)).toBe(true)
    expect(await factorOf(device.userId)).toHaveLength(1)
  })

  it('not the user’s passkey: MFA_PASSKEY_NOT_LINKED; not in MFA: MFA_NOT_ENROLLED', async () => {
    const { device, authenticator } = await userWithMfaPasskey(t, 'pk-remove-wrong@example.com')
    expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
    const plain = await linkPasskey(t, device)
    const unknown = await mfaCall(t, device, routes.mfaUnenroll, {
      method: 'passkey',
      credential_id: 'bm90LWEtcGFzc2tleQ',
    })
    expect(unknown).toMatchObject({ status: 400, body: { code: 'MFA_PASSKEY_NOT_LINKED' } })
    const notInMfa = await mfaCall(t, device, routes.mfaUnenroll, {
      method: 'passkey',
      credential_id: plain.id,
    })
    expect(notInMfa).toMatchObject({ status: 400, body: { code: 'MFA_NOT_ENROLLED' } })
    expect(await inMfa(authenticator.id)).toBe(true)
  })
})
