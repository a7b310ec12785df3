import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createCdpKey, type FakeCoinbase, startFakeCoinbase } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { ethAddress, solAddress } from '../test/wallets.ts'
import {
  allFundingOptions,
  type FundingUser,
  linkExternalWallet,
  MOONPAY_SECRET_KEY,
  userWithWallets,
} from './testing.ts'

// A signed MoonPay URL or a Coinbase session names the address the bought
// funds go to: a user may only make them for their own wallets (embedded,
// or external wallets they linked). Another user's address — even a real
// wallet of this app — and unknown addresses get the same 404, and nothing
// is signed or sent to Coinbase.
const key = createCdpKey('ec')
let cb: FakeCoinbase
let t: TestInstance
let alice: FundingUser
let bob: FundingUser
let bobsExternal: string
beforeAll(async () => {
  cb = await startFakeCoinbase({ key, now: () => t.clock.now() })
  t = await getTestInstance({
    appSettings: { funding: allFundingOptions },
    funding: { coinbase: { apiUrl: cb.url } },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'moonpay',
    secret_key: MOONPAY_SECRET_KEY,
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'coinbase-onramp',
    api_key_name: key.name,
    api_key_secret: key.secret,
  })
  alice = await userWithWallets(t, 'alice@example.com')
  bob = await userWithWallets(t, 'bob@example.com')
  bobsExternal = await linkExternalWallet(t, bob.userId, 'solana')
})
afterAll(async () => {
  await t?.close()
  await cb?.close()
})

const moonpay = (address: string, currency_code: string) =>
  t.request(routes.fundingMoonpaySign, {
    token: alice.token,
    body: { address, currency_code, use_sandbox: true },
  })
const coinbase = (address: string, chain: number | 'solana') =>
  t.request(routes.fundingCoinbaseSession, {
    token: alice.token,
    body: { chain, address, asset: chain === 'solana' ? 'SOL' : 'ETH', experience: 'buy' },
  })

it("another user's embedded or linked wallet is refused like an unknown address", async () => {
  const refused = [
    await moonpay(bob.ethereum, 'eth'),
    await moonpay(bob.ethereum.toUpperCase().replace('0X', '0x'), 'eth'),
    await moonpay(bob.solana, 'sol'),
    await moonpay(bobsExternal, 'sol'),
    await coinbase(bob.ethereum, 1),
    await coinbase(bobsExternal, 'solana'),
    await moonpay(ethAddress(), 'eth'),
    await coinbase(solAddress(), 'solana'),
  ]
  for (const res of refused) {
    expect(res).toMatchObject({
      status: 404,
      body: { code: 'WALLET_NOT_FOUND', message: 'That address is not one of your wallets' },
    })
    expect(res.body).toEqual(refused[0]?.body)
    expect(JSON.stringify(res.body)).not.toContain('moonpay.com')
  }
  expect(cb.sessions).toHaveLength(0)
})

it('the same addresses are served to their owner (checksummed case too)', async () => {
  const own = await t.request(routes.fundingMoonpaySign, {
    token: bob.token,
    body: {
      address: bob.ethereum.replace(/[a-f]/g, (c) => c.toUpperCase()),
      currency_code: 'eth',
      use_sandbox: true,
    },
  })
  expect(own.status).toBe(200)
  const linked = await t.request(routes.fundingCoinbaseSession, {
    token: bob.token,
    body: { chain: 'solana', address: bobsExternal, asset: 'SOL', experience: 'buy' },
  })
  expect(linked.status).toBe(200)
  expect(cb.sessions).toHaveLength(1)
})

it("a wallet of the same user in another app is not this app's", async () => {
  const other = await t.createApp({ funding: allFundingOptions })
  const login = await t.login('alice@example.com', { appId: other.id })
  await t.server.setAppProviderCredentials(other.id, {
    provider: 'moonpay',
    secret_key: MOONPAY_SECRET_KEY,
  })
  const res = await t.request(routes.fundingMoonpaySign, {
    token: login.token ?? '',
    appId: other.id,
    body: { address: alice.ethereum, currency_code: 'eth', use_sandbox: true },
  })
  expect(res).toMatchObject({ status: 404, body: { code: 'WALLET_NOT_FOUND' } })
})
