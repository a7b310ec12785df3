import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestEnclaveKey, keyMaterialSnapshot } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// Tracker issue 15, item 9: deleting an account destroys the user's auth
// shares, so the route is a key route (docs/security.md "Key routes answer
// only to the enclave"). A bearer token alone — copied out of the host page,
// from a log — deletes nothing, whatever Origin it claims.
const BUDGET = 3
let t: TestInstance
let token: string
let userId: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance({
    trustProxy: true,
    rateLimits: { walletKeyRequestsPerIp: { limit: BUDGET, windowMs: 10 * 60_000 } },
  })
  const auth = await t.login('keeper@example.com', { enclaveKey: t.enclaveKey })
  token = auth.token ?? ''
  userId = auth.user.id
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token,
    body: wallet,
    headers: from('192.0.2.1'),
  })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const from = (ip: string) => ({ 'x-forwarded-for': ip })

/** The user is whole: its row, its live session, its wallet secret and key records. */
async function intact(before: Awaited<ReturnType<typeof keyMaterialSnapshot>>) {
  expect(await t.db.selectFrom('users').select('id').where('id', '=', userId).execute()).toEqual([
    { id: userId },
  ])
  expect((await t.request(routes.usersMe, { token })).status).toBe(200)
  expect(await keyMaterialSnapshot(t)).toEqual(before)
}

describe('a bearer token alone deletes nothing', () => {
  it('no Origin (a script outside a browser): 403, with or without a proof', async () => {
    const before = await keyMaterialSnapshot(t)
    const bare = await t.request(routes.usersDelete, { token, body: {} })
    expect(bare).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    const proven = await t.enclaveRequest(routes.usersDelete, { token, body: {}, origin: null })
    expect(proven).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    await intact(before)
  })

  it("the app's own origin (a script in the host page): 403, with or without a proof", async () => {
    const before = await keyMaterialSnapshot(t)
    const bare = await t.request(routes.usersDelete, { token, body: {}, origin: TEST_ORIGIN })
    expect(bare).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    const proven = await t.enclaveRequest(routes.usersDelete, {
      token,
      body: {},
      origin: TEST_ORIGIN,
    })
    expect(proven).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    await intact(before)
  })

  it("the enclave's own origin without a proof, or with another key's: 401 ENCLAVE_PROOF_INVALID", async () => {
    const before = await keyMaterialSnapshot(t)
    const refused = { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } }
    expect(
      await t.enclaveRequest(routes.usersDelete, { token, body: {}, proof: null }),
    ).toMatchObject(refused)
    const attacker = await createTestEnclaveKey()
    expect(
      await t.enclaveRequest(routes.usersDelete, { token, body: {}, enclaveKey: attacker }),
    ).toMatchObject(refused)
    // A proof made for another route does not carry over.
    expect(
      await t.enclaveRequest(routes.usersDelete, {
        token,
        body: {},
        proof: { path: routes.embeddedWalletsAuthShare },
      }),
    ).toMatchObject(refused)
    await intact(before)
  })

  it('a session logged in without the enclave key cannot delete, even from the own origin with a proof', async () => {
    const unbound = await t.login('unbound@example.com')
    const res = await t.enclaveRequest(routes.usersDelete, { token: unbound.token ?? '', body: {} })
    expect(res).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
    const still = await t.request(routes.usersMe, { token: unbound.token ?? '' })
    expect(still).toMatchObject({ status: 200, body: { user: { id: unbound.user.id } } })
  })
})

describe('the enclave can, within the key-route budget', () => {
  it('counts against the per-IP key-route budget: past it 429, and the user stays', async () => {
    const before = await keyMaterialSnapshot(t)
    const ip = from('198.51.100.7')
    for (let i = 0; i < BUDGET; i++) {
      const share = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
        token,
        body: { entropy_id: wallet.entropy_id },
        headers: ip,
      })
      expect(share.status).toBe(200)
    }
    const refused = await t.enclaveRequest(routes.usersDelete, { token, body: {}, headers: ip })
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    await intact({ ...before, releases: before.releases + BUDGET })
  })

  it('the same call from the enclave, with its proof, deletes the user', async () => {
    const res = await t.enclaveRequest(routes.usersDelete, {
      token,
      body: {},
      headers: from('203.0.113.9'),
    })
    expect(res).toMatchObject({ status: 200, body: { success: true } })
    expect(await t.db.selectFrom('users').select('id').where('id', '=', userId).execute()).toEqual(
      [],
    )
    expect(await t.countRows('wallet_secrets')).toBe(0)
  })
})
