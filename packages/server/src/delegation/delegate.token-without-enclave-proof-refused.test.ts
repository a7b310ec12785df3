import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { delegateBody, userWithRealWallet } from './testing.ts'

// A script on the host page holds the user's access token but not the
// enclave's key: it cannot delegate (and so cannot hand the server a share of
// its choosing to make the app's backend sign). 401 ENCLAVE_PROOF_INVALID from
// the enclave's origin without a proof; 403 from the host's origin.
let t: TestInstance
let user: Awaited<ReturnType<typeof userWithRealWallet>>
let body: Awaited<ReturnType<typeof delegateBody>>
beforeAll(async () => {
  t = await getTestInstance()
  user = await userWithRealWallet(t, 'host-script@example.com')
  body = await delegateBody(
    t,
    user.userId,
    user.wallet.ethereum,
    'ethereum',
    user.wallet.deviceShare,
  )
})
afterAll(() => t.close())

it('the token alone, from the own origin, is refused', async () => {
  const res = await t.enclaveRequest(routes.embeddedWalletsDelegate, {
    token: user.token,
    body,
    proof: null,
  })
  expect(res).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
  expect(await t.countRows('wallet_delegations')).toBe(0)
})

it('the token from the host page is refused', async () => {
  const res = await t.request(routes.embeddedWalletsDelegate, {
    token: user.token,
    body,
    origin: TEST_ORIGIN,
  })
  expect(res.status).toBeGreaterThanOrEqual(401)
  expect(res.status).toBeLessThanOrEqual(403)
  expect(await t.countRows('wallet_delegations')).toBe(0)
})

it('with the proof it is accepted', async () => {
  const res = await t.enclaveRequest(routes.embeddedWalletsDelegate, { token: user.token, body })
  expect(res.status).toBe(200)
  expect(await t.countRows('wallet_delegations')).toBe(1)
})
