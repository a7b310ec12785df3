import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type MfaDevice, userWithTotp, verifyTotp } from '../test/mfa.ts'
import { createRealWallet, delegateBody, type RealWallet } from './testing.ts'

// Delegating hands key material to the server, so, like export, it needs a
// fresh MFA verification of this session when the user has MFA (spec 03 §5:
// "Export and delegation need MFA"): 403 MFA_REQUIRED and nothing stored.
let t: TestInstance
let device: MfaDevice
let secret: string
let wallet: RealWallet
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  ;({ device, secret } = await userWithTotp(t, 'mfa-delegate@example.com'))
  wallet = await createRealWallet(t, device.token, device.key)
  t.clock.advance(MFA_VERIFICATION_TTL_MS)
})
afterAll(() => t.close())

const delegateNow = async () =>
  t.enclaveRequest(routes.embeddedWalletsDelegate, {
    token: device.token,
    enclaveKey: device.key,
    body: await delegateBody(t, device.userId, wallet.ethereum, 'ethereum', wallet.deviceShare),
  })

it('is refused without a fresh verification, and stores nothing', async () => {
  const res = await delegateNow()
  expect(res).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })
  expect(await t.countRows('wallet_delegations')).toBe(0)
})

it('is accepted once the session verified MFA', async () => {
  expect((await verifyTotp(t, device, secret)).status).toBe(200)
  const res = await delegateNow()
  expect(res.status).toBe(200)
  expect(await t.countRows('wallet_delegations')).toBe(1)
})
