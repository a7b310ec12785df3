import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createCdpKey, type FakeCoinbase, startFakeCoinbase } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { allFundingOptions, type FundingUser, userWithWallets } from './testing.ts'

// The Coinbase routes spend the app's CDP quota on each call: they count
// against the caller IP's token lookup limit, and past it Coinbase is not
// asked.
const key = createCdpKey('ec')
let cb: FakeCoinbase
let t: TestInstance
let alice: FundingUser
beforeAll(async () => {
  cb = await startFakeCoinbase({ key, now: () => t.clock.now() })
  t = await getTestInstance({
    appSettings: { funding: allFundingOptions },
    funding: { coinbase: { apiUrl: cb.url } },
    rateLimits: { tokenPricesPerIp: { limit: 3, windowMs: 60_000 } },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'coinbase-onramp',
    api_key_name: key.name,
    api_key_secret: key.secret,
  })
  alice = await userWithWallets(t, 'alice@example.com')
})
afterAll(async () => {
  await t?.close()
  await cb?.close()
})

it('sessions and status polls share one per-IP budget; past it 429 and no Coinbase call', async () => {
  const started = await t.request(routes.fundingCoinbaseSession, {
    token: alice.token,
    body: { chain: 1, address: alice.ethereum, asset: 'ETH', experience: 'buy' },
  })
  expect(started.status).toBe(200)
  const poll = () =>
    t.request(`${routes.fundingCoinbaseStatus}?partner_user_id=${started.body.partner_user_id}`, {
      token: alice.token,
    })
  expect((await poll()).status).toBe(200)
  expect((await poll()).status).toBe(200)
  const calls = cb.requests.length
  expect(await poll()).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
  expect(cb.requests.length).toBe(calls)
  t.clock.advance(60_000)
  expect((await poll()).status).toBe(200)
})
