import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createCdpKey, type FakeCoinbase, startFakeCoinbase } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { allFundingOptions, type FundingUser, userWithWallets } from './testing.ts'

// The Coinbase status route reads purchases by partner user id: an id is
// made per session and bound to the user who started it (an HMAC tag under
// the server's key), so one user cannot read another's purchases with it,
// nor make one up. Refused ids never reach Coinbase.
const key = createCdpKey('ed25519')
let cb: FakeCoinbase
let t: TestInstance
let alice: FundingUser
let bob: FundingUser
let alicesId: string
beforeAll(async () => {
  cb = await startFakeCoinbase({ key, now: () => t.clock.now() })
  t = await getTestInstance({
    appSettings: { funding: allFundingOptions },
    funding: { coinbase: { apiUrl: cb.url } },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'coinbase-onramp',
    api_key_name: key.name,
    api_key_secret: key.secret,
  })
  alice = await userWithWallets(t, 'alice@example.com')
  bob = await userWithWallets(t, 'bob@example.com')
  const started = await t.request(routes.fundingCoinbaseSession, {
    token: alice.token,
    body: { chain: 8453, address: alice.ethereum, asset: 'USDC', experience: 'buy' },
  })
  alicesId = started.body.partner_user_id
  cb.addTransaction(alicesId, 'ONRAMP_TRANSACTION_STATUS_SUCCESS')
})
afterAll(async () => {
  await t?.close()
  await cb?.close()
})

const status = (id: string, token: string, appId?: string) =>
  t.request(`${routes.fundingCoinbaseStatus}?partner_user_id=${encodeURIComponent(id)}`, {
    token,
    ...(appId ? { appId } : {}),
  })

it('the user who started the session reads its outcome', async () => {
  expect(await status(alicesId, alice.token)).toMatchObject({
    status: 200,
    body: { status: 'success' },
  })
})

it("another user's partner_user_id is refused, and Coinbase is not asked", async () => {
  const before = cb.requests.length
  const res = await status(alicesId, bob.token)
  expect(res).toMatchObject({ status: 400, body: { code: 'FUNDING_INVALID_DATA' } })
  expect(JSON.stringify(res.body)).not.toContain('success')
  expect(cb.requests.length).toBe(before)
})

it('made-up or altered ids are refused', async () => {
  const before = cb.requests.length
  const flipped = `${alicesId.slice(0, -1)}${alicesId.endsWith('A') ? 'B' : 'A'}`
  for (const id of [
    flipped,
    `${alicesId.slice(0, 16)}${'A'.repeat(22)}`,
    'abcdefgh12345678',
    alicesId.slice(1),
  ]) {
    const res = await status(id, alice.token)
    expect(res.status, id).toBe(400)
  }
  expect(cb.requests.length).toBe(before)
})

it('the same user in another app cannot read it either', async () => {
  const other = await t.createApp({ funding: allFundingOptions })
  const login = await t.login('alice@example.com', { appId: other.id })
  await t.server.setAppProviderCredentials(other.id, {
    provider: 'coinbase-onramp',
    api_key_name: key.name,
    api_key_secret: key.secret,
  })
  const res = await status(alicesId, login.token ?? '', other.id)
  expect(res).toMatchObject({ status: 400, body: { code: 'FUNDING_INVALID_DATA' } })
})
