import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { anotherSession, type MfaDevice, mfaCall, userWithTotp, verifyTotp } from '../test/mfa.ts'

// Spec 02 §7 "clear MFA", issue 18: the client ends its verification (the
// wallet locked, a logout): the window of this session closes at once, the
// next protected call asks for MFA again, and other sessions keep theirs.
// Clearing only takes a privilege away, so it is a user route: the enclave
// calls it, and so may the host page.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
})
afterAll(() => t.close())

const clear = (device: MfaDevice, origin?: string) =>
  t.request(routes.mfaClear, { token: device.token, body: {}, ...(origin ? { origin } : {}) })
const windowOf = async (device: MfaDevice) =>
  (await t.request(routes.mfa, { token: device.token })).body.verified_until

it('ends this session’s window: the next protected call is MFA_REQUIRED until a new verification', async () => {
  const { device, secret } = await userWithTotp(t, 'clear@example.com')
  expect(await windowOf(device)).toEqual(expect.any(Number))
  const res = await t.enclaveRequest(routes.mfaClear, {
    token: device.token,
    body: {},
    enclaveKey: device.key,
  })
  expect(res).toMatchObject({ status: 200, body: { success: true } })
  expect(await windowOf(device)).toBe(null)
  expect(await mfaCall(t, device, routes.mfaUnenroll, { method: 'totp' })).toMatchObject({
    status: 403,
    body: { code: 'MFA_REQUIRED' },
  })
  expect((await verifyTotp(t, device, secret)).status).toBe(200)
  expect((await mfaCall(t, device, routes.mfaUnenroll, { method: 'totp' })).status).toBe(200)
})

it('another session of the user keeps its window', async () => {
  const email = 'clear-other@example.com'
  const { device, secret } = await userWithTotp(t, email)
  const other = await anotherSession(t, email, await createTestEnclaveKey())
  expect((await verifyTotp(t, other, secret)).status).toBe(200)
  expect((await clear(device, TEST_ORIGIN)).status).toBe(200)
  expect(await windowOf(device)).toBe(null)
  expect(await windowOf(other)).toEqual(expect.any(Number))
})

it('with no window it answers the same, and without a session it is 401', async () => {
  const device = await anotherSession(t, 'clear-none@example.com', await createTestEnclaveKey())
  expect(await clear(device)).toMatchObject({ status: 200, body: { success: true } })
  const anonymous = await t.request(routes.mfaClear, { body: {} })
  expect(anonymous.status).toBe(401)
})
