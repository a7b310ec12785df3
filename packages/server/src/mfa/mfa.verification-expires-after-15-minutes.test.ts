import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type MfaDevice, userWithTotp, verifyTotp } from '../test/mfa.ts'
import { hdBody } from '../test/wallets.ts'

// Security bar 38, issue 18: "A verification lasts 15 minutes per device".
// The window is counted on the server's clock from the verification; using
// it does not spend it, and at its end the key routes ask again.
let t: TestInstance
let device: MfaDevice
let secret: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  ;({ device, secret } = await userWithTotp(t, 'window@example.com'))
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: device.token,
    body: wallet,
    enclaveKey: device.key,
  })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const authShare = () =>
  t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token: device.token,
    body: { entropy_id: wallet.entropy_id },
    enclaveKey: device.key,
  })

it('a verification opens the key routes for 15 minutes, for every use in them, and not a millisecond more', async () => {
  const verified = await verifyTotp(t, device, secret)
  expect(verified.status).toBe(200)
  const at = t.clock.now()
  expect(verified.body).toEqual({
    method: 'totp',
    verified_at: Math.floor(at / 1000),
    expires_at: Math.floor((at + MFA_VERIFICATION_TTL_MS) / 1000),
  })
  for (const offset of [0, 60_000, MFA_VERIFICATION_TTL_MS - 1]) {
    t.clock.set(at + offset)
    expect({ offset, status: (await authShare()).status }).toEqual({ offset, status: 200 })
  }
  t.clock.set(at + MFA_VERIFICATION_TTL_MS)
  expect(await authShare()).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })
  const status = await t.request(routes.mfa, { token: device.token })
  expect(status.body.verified_until).toBeNull()
})

it('a new verification opens a new window', async () => {
  expect((await verifyTotp(t, device, secret)).status).toBe(200)
  expect((await authShare()).status).toBe(200)
  const status = await t.request(routes.mfa, { token: device.token })
  expect(status.body.verified_until).toBe(
    Math.floor((t.clock.now() + MFA_VERIFICATION_TTL_MS) / 1000),
  )
})
