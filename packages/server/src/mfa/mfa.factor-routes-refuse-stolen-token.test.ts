import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { type MfaDevice, totpCode, userWithTotp, verifyTotp } from '../test/mfa.ts'

// Issue 18: only the enclave (its own origin and its device key's proof) can
// verify MFA or change factors. A script in the host page, or anyone holding
// a copied access token, gets 403 / 401 on every MFA route that reads a
// secret, checks a code or changes a factor — even while the session it stole
// is verified — and nothing changes.
let t: TestInstance
let victim: MfaDevice
let secret: string
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  ;({ device: victim, secret } = await userWithTotp(t, 'victim@example.com'))
  // The victim's session is verified right now: the thief still gets nothing.
  expect((await verifyTotp(t, victim, secret)).status).toBe(200)
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
})

const calls = async () => [
  { name: 'init', path: routes.mfaTotpInit, body: {} },
  { name: 'enroll', path: routes.mfaTotpEnroll, body: { code: '123456' } },
  {
    name: 'verify',
    path: routes.mfaVerify,
    body: { method: 'totp', code: await totpCode(secret, t.clock.now()) },
  },
  { name: 'unenroll', path: routes.mfaUnenroll, body: { method: 'totp' } },
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

it('the status route is the host’s to read, and says nothing secret', async () => {
  const res = await t.request(routes.mfa, { token: victim.token, origin: TEST_ORIGIN })
  expect(res.status).toBe(200)
  expect(res.body.factors).toEqual([{ method: 'totp', enrolled_at: expect.any(Number) }])
  expect(JSON.stringify(res.body)).not.toContain(secret)
})

it('the victim’s own enclave still removes the factor', async () => {
  const res = await t.enclaveRequest(routes.mfaUnenroll, {
    token: victim.token,
    body: { method: 'totp' },
    enclaveKey: victim.key,
  })
  expect(res).toMatchObject({ status: 200, body: { mfa_methods: [] } })
})
