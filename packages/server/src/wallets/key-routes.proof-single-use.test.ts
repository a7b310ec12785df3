import { Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sha256 } from '../ids.ts'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// RFC 9449 §11.1: a proof is used once. A captured proof (same `jti`), replayed
// with its token even within the `iat` window, is 401 ENCLAVE_PROOF_INVALID,
// also when two copies arrive at once.
let t: TestInstance
let token: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance()
  token = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body: wallet })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const refused = { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } }
const authShare = (proof: { jti?: string } | null, headers: Record<string, string> = {}) =>
  t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: wallet.entropy_id },
    proof,
    headers,
  })

it('the same jti twice: the second is refused and releases nothing', async () => {
  expect((await authShare({ jti: 'once' })).status).toBe(200)
  const releases = await t.countRows('key_releases')
  const again = await authShare({ jti: 'once' })
  expect(again).toMatchObject(refused)
  expect(JSON.stringify(again.body)).not.toContain(wallet.auth_share)
  expect(await t.countRows('key_releases')).toBe(releases)
  // A fresh jti is fine.
  expect((await authShare({ jti: 'twice' })).status).toBe(200)
})

it('the very same proof replayed a second later is refused', async () => {
  const dpop = await t.enclaveKey.proof({
    path: routes.embeddedWalletsAuthShare,
    token,
    now: t.clock.now(),
  })
  expect((await authShare(null, { [Header.enclaveProof]: dpop })).status).toBe(200)
  t.clock.advance(1000)
  expect(await authShare(null, { [Header.enclaveProof]: dpop })).toMatchObject(refused)
})

it('a replay on another key route is refused too (its htu differs, and the jti is spent)', async () => {
  const dpop = await t.enclaveKey.proof({
    path: routes.embeddedWalletsAuthShare,
    token,
    now: t.clock.now(),
  })
  expect((await authShare(null, { [Header.enclaveProof]: dpop })).status).toBe(200)
  const res = await t.enclaveRequest(routes.embeddedWalletsRecovery, {
    token,
    body: { entropy_id: wallet.entropy_id },
    proof: null,
    headers: { [Header.enclaveProof]: dpop },
  })
  expect(res).toMatchObject(refused)
})

it('two copies at once: exactly one is answered', async () => {
  const dpop = await t.enclaveKey.proof({
    path: routes.embeddedWalletsAuthShare,
    token,
    now: t.clock.now(),
  })
  const results = await Promise.all(
    Array.from({ length: 5 }, () => authShare(null, { [Header.enclaveProof]: dpop })),
  )
  expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401])
})

it('spent jtis are stored per key, hashed, until the iat window has passed', async () => {
  const row = await t.db
    .selectFrom('enclave_proof_jtis')
    .selectAll()
    .where('jti_hash', '=', sha256(`${t.enclaveKey.jkt}.once`))
    .executeTakeFirst()
  expect(row).toBeDefined()
  expect(
    JSON.stringify(await t.db.selectFrom('enclave_proof_jtis').selectAll().execute()),
  ).not.toContain('once')
  // Another key's session may use the same jti string: the record is per key.
  const other = await createTestEnclaveKey()
  const otherToken = (await t.login('other@example.com', { enclaveKey: other })).token ?? ''
  const res = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: otherToken,
    body: hdBody(),
    enclaveKey: other,
    proof: { jti: 'once' },
  })
  expect(res.status).toBe(200)
})
