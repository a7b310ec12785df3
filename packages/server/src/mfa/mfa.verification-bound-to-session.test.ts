import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { anotherSession, type MfaDevice, userWithTotp, verifyTotp } from '../test/mfa.ts'
import { hdBody } from '../test/wallets.ts'

// Issue 18: an MFA verification is bound to the session that made it, and a
// session to one enclave device key, so a verification is per device. Another
// session of the same user — on another device, or a second login on the
// same device — is refused until it verifies itself. Refreshing keeps the
// session, and so its verification.
const EMAIL = 'bound@example.com'
let t: TestInstance
let device: MfaDevice
let secret: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  ;({ device, secret } = await userWithTotp(t, EMAIL))
  wallet = hdBody()
  expect(
    (
      await t.enclaveRequest(routes.embeddedWalletsCreate, {
        token: device.token,
        body: wallet,
        enclaveKey: device.key,
      })
    ).status,
  ).toBe(200)
  t.clock.advance(MFA_VERIFICATION_TTL_MS)
})
afterAll(() => t.close())

const authShare = (as: MfaDevice, token = as.token) =>
  t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: wallet.entropy_id },
    enclaveKey: as.key,
  })

it("one device's verification does not open another device's session of the same user", async () => {
  const laptop = await anotherSession(t, EMAIL, await createTestEnclaveKey())
  expect((await verifyTotp(t, device, secret)).status).toBe(200)
  expect((await authShare(device)).status).toBe(200)
  expect(await authShare(laptop)).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })
  // Once the laptop verifies, it has a window of its own.
  expect((await verifyTotp(t, laptop, secret)).status).toBe(200)
  expect((await authShare(laptop)).status).toBe(200)
})

it('a second login on the same device (same enclave key, new session) is refused until it verifies', async () => {
  expect((await verifyTotp(t, device, secret)).status).toBe(200)
  const sameDevice = await anotherSession(t, EMAIL, device.key)
  expect(sameDevice.sessionId).not.toBe(device.sessionId)
  expect(await authShare(sameDevice)).toMatchObject({
    status: 403,
    body: { code: 'MFA_REQUIRED' },
  })
  expect((await authShare(device)).status).toBe(200)
})

it('a refreshed token of the verified session keeps its window (it is the same session)', async () => {
  expect((await verifyTotp(t, device, secret)).status).toBe(200)
  const refreshed = await t.request(routes.sessionRefresh, {
    body: { refresh_token: device.refreshToken },
  })
  expect(refreshed.status).toBe(200)
  expect((await authShare(device, refreshed.body.token)).status).toBe(200)
})

it('after logout the verified session is gone: its window opens nothing', async () => {
  const phone = await anotherSession(t, EMAIL, await createTestEnclaveKey())
  expect((await verifyTotp(t, phone, secret)).status).toBe(200)
  expect((await authShare(phone)).status).toBe(200)
  const out = await t.request(routes.sessionLogout, {
    token: phone.token,
    body: { refresh_token: phone.refreshToken },
  })
  expect(out.status).toBe(200)
  expect(await authShare(phone)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
})
