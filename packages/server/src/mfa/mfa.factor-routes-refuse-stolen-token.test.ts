import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  PASSKEY_APP_SETTINGS,
  type SoftwareAuthenticator,
  TEST_RP_ID,
} from '../auth/passkey/testing.ts'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import {
  linkPasskey,
  type MfaDevice,
  smsTo,
  totpCode,
  userWithTotp,
  verifyTotp,
} from '../test/mfa.ts'

// Issue 18: only the enclave (its own origin and its device key's proof) can
// verify MFA or change factors. A script in the host page, or anyone holding
// a copied access token, gets 403 / 401 on every MFA route that reads a
// secret, sends or checks a code or changes a factor — even while the session
// it stole is verified — and nothing changes: no factor, no passkey flag, no
// verification, no attempt, no code, no SMS.
let t: TestInstance
let victim: MfaDevice
let secret: string
let passkey: SoftwareAuthenticator
const phone = '+14155550150'
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { ...PASSKEY_APP_SETTINGS, mfa_methods: ['totp', 'sms', 'passkey'] },
  })
  ;({ device: victim, secret } = await userWithTotp(t, 'victim@example.com'))
  // The victim's session is verified right now: the thief still gets nothing.
  expect((await verifyTotp(t, victim, secret)).status).toBe(200)
  passkey = await linkPasskey(t, victim)
})
afterAll(() => t.close())

const mfaSnapshot = async () => ({
  factors: await t.db.selectFrom('mfa_factors').selectAll().orderBy('id').execute(),
  verifications: await t.db
    .selectFrom('mfa_verifications')
    .selectAll()
    .orderBy('session_id')
    .execute(),
  attempts: await t.db.selectFrom('mfa_attempts').selectAll().orderBy('user_id').execute(),
  passkeys: await t.db
    .selectFrom('linked_accounts')
    .select(['identifier', 'data'])
    .where('type', '=', 'passkey')
    .orderBy('id')
    .execute(),
  codes: await t.db.selectFrom('otp_codes').select('id').orderBy('id').execute(),
  challenges: await t.db.selectFrom('passkey_challenges').select('challenge').execute(),
  sms: smsTo(t, '').length,
})

const calls = async () => [
  { name: 'totp init', path: routes.mfaTotpInit, body: {} },
  { name: 'totp enroll', path: routes.mfaTotpEnroll, body: { code: '123456' } },
  {
    name: 'sms init (enroll)',
    path: routes.mfaSmsInit,
    body: { action: 'enroll', phone_number: phone },
  },
  { name: 'sms init (verify)', path: routes.mfaSmsInit, body: { action: 'verify' } },
  {
    name: 'sms enroll',
    path: routes.mfaSmsEnroll,
    body: { phone_number: phone, code: '123456' },
  },
  { name: 'passkey init', path: routes.mfaPasskeyInit, body: {} },
  {
    name: 'passkey enroll',
    path: routes.mfaPasskeyEnroll,
    body: { credential_ids: [passkey.id] },
  },
  {
    name: 'verify (totp)',
    path: routes.mfaVerify,
    body: { method: 'totp', code: await totpCode(secret, t.clock.now()) },
  },
  { name: 'verify (sms)', path: routes.mfaVerify, body: { method: 'sms', code: '123456' } },
  {
    name: 'verify (passkey)',
    path: routes.mfaVerify,
    body: {
      method: 'passkey',
      relying_party: TEST_RP_ID,
      authenticator_response: passkey.get({
        rpId: TEST_RP_ID,
        challenge: 'c3RvbGVu',
        origin: TEST_ORIGIN,
      }),
    },
  },
  { name: 'unenroll', path: routes.mfaUnenroll, body: { method: 'totp' } },
  {
    name: 'unenroll (passkey)',
    path: routes.mfaUnenroll,
    body: { method: 'passkey', credential_id: passkey.id, remove_for_login: true },
  },
]

it('the stolen token from the host page (the app origin), even with a proof: 403 ORIGIN_NOT_ALLOWED', async () => {
  const before = await mfaSnapshot()
  for (const { name, path, body } of await calls()) {
    const res = await t.enclaveRequest(path, {
      token: victim.token,
      body,
      enclaveKey: victim.key,
      origin: TEST_ORIGIN,
    })
    expect({ name, ...res }).toMatchObject({
      name,
      status: 403,
      body: { code: 'ORIGIN_NOT_ALLOWED' },
    })
    expect(JSON.stringify(res.body)).not.toContain(secret)
  }
  expect(await mfaSnapshot()).toEqual(before)
})

it('the stolen token outside a browser (no Origin): 403 ORIGIN_NOT_ALLOWED', async () => {
  const before = await mfaSnapshot()
  for (const { name, path, body } of await calls()) {
    const res = await t.request(path, { token: victim.token, body })
    expect({ name, ...res }).toMatchObject({
      name,
      status: 403,
      body: { code: 'ORIGIN_NOT_ALLOWED' },
    })
  }
  expect(await mfaSnapshot()).toEqual(before)
})

it('the stolen token with a forged own Origin but no proof, or a proof from the thief’s key: 401', async () => {
  const thief = await createTestEnclaveKey()
  const before = await mfaSnapshot()
  for (const { name, path, body } of await calls()) {
    const bare = await t.enclaveRequest(path, { token: victim.token, body, proof: null })
    expect({ name, ...bare }).toMatchObject({
      name,
      status: 401,
      body: { code: 'ENCLAVE_PROOF_INVALID' },
    })
    const forged = await t.enclaveRequest(path, { token: victim.token, body, enclaveKey: thief })
    expect({ name, ...forged }).toMatchObject({
      name,
      status: 401,
      body: { code: 'ENCLAVE_PROOF_INVALID' },
    })
  }
  expect(await mfaSnapshot()).toEqual(before)
})

it('taking a passkey out of MFA through passkeys/unlink is refused the same way', async () => {
  const enrolled = await t.enclaveRequest(routes.mfaPasskeyEnroll, {
    token: victim.token,
    body: { credential_ids: [passkey.id] },
    enclaveKey: victim.key,
  })
  expect(enrolled.status).toBe(200)
  const before = await mfaSnapshot()
  const body = { credential_id: passkey.id, remove_as_mfa: true }
  const fromHost = await t.request(routes.passkeyUnlink, {
    token: victim.token,
    body,
    origin: TEST_ORIGIN,
  })
  expect(fromHost).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  const bare = await t.enclaveRequest(routes.passkeyUnlink, {
    token: victim.token,
    body,
    proof: null,
  })
  expect(bare).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
  expect(await mfaSnapshot()).toEqual(before)
})

it('the status route is the host’s to read, and says nothing secret', async () => {
  const res = await t.request(routes.mfa, { token: victim.token, origin: TEST_ORIGIN })
  expect(res.status).toBe(200)
  expect(res.body.factors).toEqual([
    { method: 'totp', enrolled_at: expect.any(Number) },
    { method: 'passkey', enrolled_at: expect.any(Number) },
  ])
  expect(JSON.stringify(res.body)).not.toContain(secret)
})

it('the victim’s own enclave still removes the factors', async () => {
  const call = (body: object) =>
    t.enclaveRequest(routes.mfaUnenroll, { token: victim.token, body, enclaveKey: victim.key })
  expect(await call({ method: 'totp' })).toMatchObject({
    status: 200,
    body: { mfa_methods: ['passkey'] },
  })
  expect(await call({ method: 'passkey' })).toMatchObject({
    status: 200,
    body: { mfa_methods: [] },
  })
})

it('clearing the window is a user route: a copied token can end it, which only takes a privilege away', async () => {
  const res = await t.request(routes.mfaClear, { token: victim.token, body: {} })
  expect(res).toMatchObject({ status: 200, body: { success: true } })
  expect((await t.request(routes.mfa, { token: victim.token })).body.verified_until).toBe(null)
})
