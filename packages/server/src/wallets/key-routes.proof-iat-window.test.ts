import { ENCLAVE_PROOF_MAX_SKEW_S, Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// A proof's `iat` must be within ±60 s (ENCLAVE_PROOF_MAX_SKEW_S) of the
// server's clock: a proof captured and held back, or minted for later, is 401
// ENCLAVE_PROOF_INVALID. Driven by the test clock.
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

/** A proof made at `at` (test-clock ms), sent now. */
async function sendProofMadeAt(at: number) {
  const dpop = await t.enclaveKey.proof({ path: routes.embeddedWalletsAuthShare, token, now: at })
  return t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: wallet.entropy_id },
    proof: null,
    headers: { [Header.enclaveProof]: dpop },
  })
}

it('is 60 s', () => {
  expect(ENCLAVE_PROOF_MAX_SKEW_S).toBe(60)
})

it('a proof 59 s old is answered; 61 s old is refused', async () => {
  const made = t.clock.now()
  t.clock.advance(59_000)
  expect((await sendProofMadeAt(made)).status).toBe(200)
  const late = t.clock.now()
  t.clock.advance(61_000)
  const res = await sendProofMadeAt(late)
  expect(res).toMatchObject(refused)
  expect(JSON.stringify(res.body)).not.toContain(wallet.auth_share)
})

it('a proof 59 s ahead is answered; 61 s ahead is refused', async () => {
  expect((await sendProofMadeAt(t.clock.now() + 59_000)).status).toBe(200)
  expect(await sendProofMadeAt(t.clock.now() + 61_000)).toMatchObject(refused)
})

it('exactly at the edge (60 s either way) is still answered', async () => {
  expect((await sendProofMadeAt(t.clock.now() - 60_000)).status).toBe(200)
  expect((await sendProofMadeAt(t.clock.now() + 60_000)).status).toBe(200)
})

it('a proof without a numeric iat is refused', async () => {
  for (const iat of [undefined, '0', Number.NaN]) {
    const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token,
      body: { entropy_id: wallet.entropy_id },
      proof: { claims: { iat } },
    })
    expect({ iat: String(iat), ...res }).toMatchObject({ iat: String(iat), ...refused })
  }
})
