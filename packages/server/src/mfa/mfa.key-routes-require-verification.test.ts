import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnclaveKey, keyMaterialSnapshot, keyRouteCalls } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type MfaDevice, userWithTotp, verifyTotp } from '../test/mfa.ts'
import { ethAddress, hdBody } from '../test/wallets.ts'

// Security bar 38, issue 18: with MFA enrolled, the server releases the auth
// share (signing, export), the recovery material, and accepts a new recovery
// method, a cloud consent exchange or the account's deletion only after a
// fresh MFA verification of that session. Without one the answer is 403
// MFA_REQUIRED — never a share — and nothing is written or recorded.
let t: TestInstance
let device: MfaDevice
let secret: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  ;({ device, secret } = await userWithTotp(t, 'protected@example.com'))
  wallet = hdBody()
  const created = await call(routes.embeddedWalletsCreate, wallet)
  expect(created.status).toBe(200)
  // The setup's verification runs out.
  t.clock.advance(MFA_VERIFICATION_TTL_MS)
})
afterAll(() => t.close())

const call = (path: string, body: object, as: MfaDevice = device) =>
  t.enclaveRequest(path, { token: as.token, body, enclaveKey: as.key })

const PROTECTED = ['auth share', 'recovery', 'set recovery', 'cloud consent exchange']

describe('without a verification', () => {
  it('every route that releases or replaces key material answers 403 MFA_REQUIRED, and writes nothing', async () => {
    const before = await keyMaterialSnapshot(t)
    for (const { name, path, body } of keyRouteCalls(wallet).filter((c) =>
      PROTECTED.includes(c.name),
    )) {
      const res = await call(path, body)
      expect({ name, ...res }).toMatchObject({
        name,
        status: 403,
        body: { code: 'MFA_REQUIRED', details: { mfa_methods: ['totp'] } },
      })
      expect(JSON.stringify(res.body)).not.toContain(wallet.auth_share)
      expect(JSON.stringify(res.body)).not.toContain(wallet.recovery.ciphertext)
    }
    expect(await keyMaterialSnapshot(t)).toEqual(before)
  })

  it('account deletion is refused too, and the user stays', async () => {
    expect(await call(routes.usersDelete, {})).toMatchObject({
      status: 403,
      body: { code: 'MFA_REQUIRED' },
    })
    expect((await t.request(routes.usersMe, { token: device.token })).status).toBe(200)
  })

  it('creating and adding wallets release nothing, so they need no verification', async () => {
    const added = await call(routes.embeddedWalletsAdd, {
      entropy_id: wallet.entropy_id,
      chain_type: 'ethereum',
      address: ethAddress(),
      wallet_index: 1,
    })
    expect(added.status).toBe(200)
  })

  it('a user without MFA is not asked: the same calls pass', async () => {
    const key = await createTestEnclaveKey()
    const auth = await t.login('no-mfa@example.com', { enclaveKey: key })
    const plain = { token: auth.token ?? '', key } as MfaDevice
    const own = hdBody()
    expect((await call(routes.embeddedWalletsCreate, own, plain)).status).toBe(200)
    const share = await call(routes.embeddedWalletsAuthShare, { entropy_id: own.entropy_id }, plain)
    expect(share).toMatchObject({ status: 200, body: { auth_share: own.auth_share } })
  })
})

describe('with a verification of this session', () => {
  it('the auth share, the recovery material and a new recovery method are answered', async () => {
    expect((await verifyTotp(t, device, secret)).status).toBe(200)
    const share = await call(routes.embeddedWalletsAuthShare, { entropy_id: wallet.entropy_id })
    expect(share).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
    const recovery = await call(routes.embeddedWalletsRecovery, { entropy_id: wallet.entropy_id })
    expect(recovery).toMatchObject({
      status: 200,
      body: { recovery: { ciphertext: wallet.recovery.ciphertext } },
    })
    const set = await call(routes.embeddedWalletsSetRecovery, {
      entropy_id: wallet.entropy_id,
      recovery: wallet.recovery,
    })
    expect(set.status).toBe(200)
    // Every release was recorded as usual.
    const kinds = await t.db
      .selectFrom('key_releases')
      .select('kind')
      .where('user_id', '=', device.userId)
      .execute()
    expect(kinds.map((k) => k.kind).sort()).toEqual(['auth_share', 'recovery'])
  })

  it('the window covers several actions: deleting the account goes through, MFA rows with it', async () => {
    const res = await call(routes.usersDelete, {})
    expect(res).toMatchObject({ status: 200, body: { success: true } })
    for (const table of ['mfa_factors', 'mfa_verifications', 'mfa_attempts'] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', device.userId)
        .execute()
      expect({ table, rows }).toEqual({ table, rows: [] })
    }
  })
})
