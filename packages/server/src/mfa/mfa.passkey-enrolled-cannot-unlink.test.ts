import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PASSKEY_APP_SETTINGS } from '../auth/passkey/testing.ts'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import {
  anotherSession,
  linkPasskey,
  type MfaDevice,
  userWithMfaPasskey,
  verifyPasskey,
} from '../test/mfa.ts'
import { resetUserMfa } from './reset.ts'

// Spec 02 ('Cannot unlink a passkey enrolled in MFA'), issue 18: a passkey
// in MFA is not unlinked as a login method. `remove_as_mfa` takes it out of
// MFA and the account in one go — a factor change, so only from the enclave
// (its origin and device key's proof) with a fresh verification, never from
// the host page or with a copied token.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { ...PASSKEY_APP_SETTINGS, mfa_methods: ['passkey'] } })
})
afterAll(() => t.close())

const fromHost = (device: MfaDevice, body: object) =>
  t.request(routes.passkeyUnlink, { token: device.token, body, origin: TEST_ORIGIN })
const fromEnclave = (device: MfaDevice, body: object) =>
  t.enclaveRequest(routes.passkeyUnlink, { token: device.token, body, enclaveKey: device.key })

const linked = async (credentialId: string) =>
  (await t.db
    .selectFrom('linked_accounts')
    .select('id')
    .where('type', '=', 'passkey')
    .where('identifier', '=', credentialId)
    .executeTakeFirst()) !== undefined

const methodsOf = async (userId: string) =>
  (
    await t.db.selectFrom('mfa_factors').select('method').where('user_id', '=', userId).execute()
  ).map((r) => r.method)

it('unlinking a passkey in MFA: 400 PASSKEY_ENROLLED_IN_MFA, even with a fresh verification', async () => {
  const { device, authenticator } = await userWithMfaPasskey(t, 'keep-pk@example.com')
  expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
  for (const res of [
    await fromHost(device, { credential_id: authenticator.id }),
    await fromEnclave(device, { credential_id: authenticator.id, remove_as_mfa: false }),
  ])
    expect(res).toMatchObject({
      status: 400,
      body: { code: 'PASSKEY_ENROLLED_IN_MFA', message: 'Cannot unlink a passkey enrolled in MFA' },
    })
  expect(await linked(authenticator.id)).toBe(true)
  expect(await methodsOf(device.userId)).toEqual(['passkey'])
})

it('remove_as_mfa from the host page, or with no Origin: 403 ORIGIN_NOT_ALLOWED, nothing changes', async () => {
  const { device, authenticator } = await userWithMfaPasskey(t, 'host-pk@example.com')
  // The session is verified: the host page still may not change factors.
  expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
  const body = { credential_id: authenticator.id, remove_as_mfa: true }
  expect(await fromHost(device, body)).toMatchObject({
    status: 403,
    body: { code: 'ORIGIN_NOT_ALLOWED' },
  })
  const bare = await t.request(routes.passkeyUnlink, { token: device.token, body })
  expect(bare).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  const forged = await t.enclaveRequest(routes.passkeyUnlink, {
    token: device.token,
    body,
    enclaveKey: await createTestEnclaveKey(),
  })
  expect(forged).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
  expect(await linked(authenticator.id)).toBe(true)
  expect(await methodsOf(device.userId)).toEqual(['passkey'])
})

it('remove_as_mfa from the enclave needs a fresh verification, then unlinks and ends the factor', async () => {
  const { device, authenticator } = await userWithMfaPasskey(t, 'remove-pk@example.com')
  const body = { credential_id: authenticator.id, remove_as_mfa: true }
  expect(await fromEnclave(device, body)).toMatchObject({
    status: 403,
    body: { code: 'MFA_REQUIRED' },
  })
  expect(await linked(authenticator.id)).toBe(true)

  expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
  const res = await fromEnclave(device, body)
  expect(res.status).toBe(200)
  expect(res.body.mfa_methods).toEqual([])
  expect(res.body.linked_accounts.some((a: { type: string }) => a.type === 'passkey')).toBe(false)
  expect(await linked(authenticator.id)).toBe(false)
  expect(await methodsOf(device.userId)).toEqual([])
})

it('the factor stays while another passkey is in MFA', async () => {
  const { device, authenticator } = await userWithMfaPasskey(t, 'two-pk@example.com')
  expect((await verifyPasskey(t, device, authenticator)).status).toBe(200)
  const second = await linkPasskey(t, device)
  await t.enclaveRequest(routes.mfaPasskeyEnroll, {
    token: device.token,
    body: { credential_ids: [second.id] },
    enclaveKey: device.key,
  })
  const res = await fromEnclave(device, { credential_id: authenticator.id, remove_as_mfa: true })
  expect(res).toMatchObject({ status: 200, body: { mfa_methods: ['passkey'] } })
  expect(await linked(second.id)).toBe(true)
})

it('a passkey not in MFA unlinks from the host as before, whatever remove_as_mfa says', async () => {
  const device = await anotherSession(t, 'plain-pk@example.com', await createTestEnclaveKey())
  const first = await linkPasskey(t, device)
  const second = await linkPasskey(t, device)
  expect((await fromHost(device, { credential_id: first.id })).status).toBe(200)
  const res = await fromHost(device, { credential_id: second.id, remove_as_mfa: true })
  expect(res.status).toBe(200)
  expect([await linked(first.id), await linked(second.id)]).toEqual([false, false])
})

it('after the operator’s MFA reset the passkey is out of MFA and can be unlinked', async () => {
  const { device, authenticator } = await userWithMfaPasskey(t, 'reset-pk@example.com')
  t.clock.advance(MFA_VERIFICATION_TTL_MS)
  await resetUserMfa(t.db, device.userId, t.clock.now())
  const fresh = await anotherSession(t, 'reset-pk@example.com', await createTestEnclaveKey())
  expect(fresh.userId).toBe(device.userId)
  const res = await fromHost(fresh, { credential_id: authenticator.id })
  expect(res.status).toBe(200)
  expect(await linked(authenticator.id)).toBe(false)
})
