import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { anotherSession, type MfaDevice, userWithTotp, verifyTotp } from '../test/mfa.ts'
import { hdBody } from '../test/wallets.ts'

// docs/mfa.md "Warm keys": the auth share's answer says until when the
// enclave may keep the rebuilt key — the end of this session's MFA window,
// and only for a user with an enabled factor. Without MFA there is no window
// to bound the cache, so the answer is null and every signature fetches.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
})
afterAll(() => t.close())

const call = (path: string, body: object, as: MfaDevice) =>
  t.enclaveRequest(path, { token: as.token, body, enclaveKey: as.key })

async function walletOf(device: MfaDevice) {
  const wallet = hdBody()
  expect((await call(routes.embeddedWalletsCreate, wallet, device)).status).toBe(200)
  return wallet
}

const authShare = (device: MfaDevice, entropyId: string) =>
  call(routes.embeddedWalletsAuthShare, { entropy_id: entropyId }, device)

describe('warm_until', () => {
  it('is null for a user without MFA', async () => {
    const key = await createTestEnclaveKey()
    const auth = await t.login('no-mfa-warm@example.com', { enclaveKey: key })
    const device = { token: auth.token ?? '', key } as MfaDevice
    const wallet = await walletOf(device)
    const res = await authShare(device, wallet.entropy_id)
    expect(res).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
    expect(res.body.warm_until).toBeNull()
  })

  it("is the end of this session's window (Unix ms), not now + 15 minutes, and moves with a renewal", async () => {
    const key = await createTestEnclaveKey()
    const { device, secret } = await userWithTotp(t, 'warm@example.com', key)
    const wallet = await walletOf(device)
    const verified = await verifyTotp(t, device, secret)
    expect(verified.status).toBe(200)
    const windowEnd = verified.body.expires_at * 1000
    expect(windowEnd).toBe(Math.floor((t.clock.now() + MFA_VERIFICATION_TTL_MS) / 1000) * 1000)

    const first = await authShare(device, wallet.entropy_id)
    expect(first.status).toBe(200)
    // The row's exact end (ms), which the answer in seconds rounds down.
    const row = await t.db
      .selectFrom('mfa_verifications')
      .select('expires_at')
      .where('session_id', '=', device.sessionId)
      .executeTakeFirstOrThrow()
    expect(first.body.warm_until).toBe(Number(row.expires_at))
    expect(Math.floor(first.body.warm_until / 1000) * 1000).toBe(windowEnd)

    t.clock.advance(5 * 60_000)
    const later = await authShare(device, wallet.entropy_id)
    expect(later.body.warm_until).toBe(first.body.warm_until)

    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    const renewed = await authShare(device, wallet.entropy_id)
    expect(renewed.body.warm_until).toBe(t.clock.now() + MFA_VERIFICATION_TTL_MS)
    expect(renewed.body.warm_until).toBeGreaterThan(first.body.warm_until)
  })

  it("another session of the same user gets its own window's end, never the other's", async () => {
    const key = await createTestEnclaveKey()
    const { device, secret } = await userWithTotp(t, 'warm-two@example.com', key)
    const wallet = await walletOf(device)
    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    const firstEnd = (await authShare(device, wallet.entropy_id)).body.warm_until

    t.clock.advance(60_000)
    const other = await anotherSession(t, 'warm-two@example.com', await createTestEnclaveKey())
    // Unverified: refused outright, no share and no window.
    expect(await authShare(other, wallet.entropy_id)).toMatchObject({
      status: 403,
      body: { code: 'MFA_REQUIRED' },
    })
    expect((await verifyTotp(t, other, secret)).status).toBe(200)
    const otherEnd = (await authShare(other, wallet.entropy_id)).body.warm_until
    expect(otherEnd).toBe(t.clock.now() + MFA_VERIFICATION_TTL_MS)
    expect(otherEnd).not.toBe(firstEnd)
    expect((await authShare(device, wallet.entropy_id)).body.warm_until).toBe(firstEnd)
  })

  it('is null again once the user has removed every factor, though the verification row remains', async () => {
    const key = await createTestEnclaveKey()
    const { device, secret } = await userWithTotp(t, 'warm-removed@example.com', key)
    const wallet = await walletOf(device)
    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    expect((await authShare(device, wallet.entropy_id)).body.warm_until).toEqual(expect.any(Number))

    expect((await call(routes.mfaUnenroll, { method: 'totp' }, device)).status).toBe(200)
    const rows = await t.db
      .selectFrom('mfa_verifications')
      .select('session_id')
      .where('session_id', '=', device.sessionId)
      .execute()
    expect(rows).toHaveLength(1)
    const res = await authShare(device, wallet.entropy_id)
    expect(res).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
    expect(res.body.warm_until).toBeNull()
  })

  it('is null at the window end: the route then refuses with MFA_REQUIRED and no share', async () => {
    const key = await createTestEnclaveKey()
    const { device, secret } = await userWithTotp(t, 'warm-end@example.com', key)
    const wallet = await walletOf(device)
    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    const end = (await authShare(device, wallet.entropy_id)).body.warm_until as number
    t.clock.advance(end - t.clock.now() - 1)
    expect((await authShare(device, wallet.entropy_id)).body.warm_until).toBe(end)
    t.clock.advance(1)
    const res = await authShare(device, wallet.entropy_id)
    expect(res).toMatchObject({ status: 403, body: { code: 'MFA_REQUIRED' } })
    expect(res.body.auth_share).toBeUndefined()
  })
})
