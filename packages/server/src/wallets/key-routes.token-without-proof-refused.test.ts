import { Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { keyMaterialSnapshot, keyRouteCalls } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// Tracker issue 15 (1): a valid access token is not enough for a key route. A
// script on the host page, or anyone who copied the token, gets 401
// ENCLAVE_PROOF_INVALID without the enclave's proof, and nothing is released.
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

it('every key route refuses a valid token from the own origin without a proof', async () => {
  // The token itself is good: a host route answers it.
  expect((await t.request(routes.usersMe, { token })).status).toBe(200)
  const before = await keyMaterialSnapshot(t)
  for (const { name, path, body } of keyRouteCalls(wallet)) {
    const res = await t.enclaveRequest(path, { token, body, proof: null })
    expect({ name, ...res }).toMatchObject({ name, ...refused })
    expect(JSON.stringify(res.body)).not.toContain(wallet.auth_share)
  }
  expect(await keyMaterialSnapshot(t)).toEqual(before)
})

it('an empty or garbage proof header is no proof', async () => {
  const before = await keyMaterialSnapshot(t)
  for (const dpop of ['', 'x', 'a.b', 'a.b.c', `${token}`]) {
    const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token,
      body: { entropy_id: wallet.entropy_id },
      proof: null,
      headers: { [Header.enclaveProof]: dpop },
    })
    expect({ dpop, ...res }).toMatchObject({ dpop, ...refused })
  }
  expect(await keyMaterialSnapshot(t)).toEqual(before)
})

it('the same call with the proof is answered (the refusal is the proof’s, nothing else)', async () => {
  const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: wallet.entropy_id },
  })
  expect(res).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
})
