import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  createTestEnclaveKey,
  keyMaterialSnapshot,
  keyRouteCalls,
  type TestEnclaveKey,
} from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// Tracker issue 15 (1): a copied access token is useless without the
// enclave's non-extractable key. The attacker signs proofs with a key of their
// own (even one bound to their own session); the server checks the proof's key
// against the victim session's thumbprint: 401 ENCLAVE_PROOF_INVALID.
let t: TestInstance
let victim: string
let wallet: ReturnType<typeof hdBody>
let attacker: TestEnclaveKey
beforeAll(async () => {
  t = await getTestInstance()
  victim = (await t.login('victim@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: victim,
    body: wallet,
  })
  expect(created.status).toBe(200)
  attacker = await createTestEnclaveKey()
})
afterAll(() => t.close())

const refused = { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } }

it("the attacker's key signing for the victim's token: 401 on every key route, nothing released", async () => {
  const before = await keyMaterialSnapshot(t)
  for (const { name, path, body } of keyRouteCalls(wallet)) {
    const res = await t.enclaveRequest(path, { token: victim, body, enclaveKey: attacker })
    expect({ name, ...res }).toMatchObject({ name, ...refused })
    expect(JSON.stringify(res.body)).not.toContain(wallet.auth_share)
  }
  expect(await keyMaterialSnapshot(t)).toEqual(before)
})

it("a key bound to the attacker's own session does not carry over to the victim's token", async () => {
  const own = (await t.login('attacker@example.com', { enclaveKey: attacker })).token ?? ''
  // The attacker's key works for the attacker's session…
  const mine = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: own,
    body: hdBody(),
    enclaveKey: attacker,
  })
  expect(mine.status).toBe(200)
  // …and not for the victim's.
  const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token: victim,
    body: { entropy_id: wallet.entropy_id },
    enclaveKey: attacker,
  })
  expect(res).toMatchObject(refused)
})

it("the victim's public key in the header, signed by the attacker: the signature fails", async () => {
  const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token: victim,
    body: { entropy_id: wallet.entropy_id },
    enclaveKey: attacker,
    proof: { header: { jwk: t.enclaveKey.jwk } },
  })
  expect(res).toMatchObject(refused)
  expect(await t.countRows('key_releases')).toBe(0)
})

it("the victim's own enclave key is answered", async () => {
  const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token: victim,
    body: { entropy_id: wallet.entropy_id },
  })
  expect(res).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
})
