import { routes } from '@latchkey/protocol'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCdpKey, type FakeCoinbase, startFakeCoinbase } from '../test/fake-coinbase.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { allFundingOptions, type FundingUser, userWithWallets } from './testing.ts'

// Coinbase Onramp (spec 03 §5, §7 "Card on-ramp"): the server mints a
// session token with the app's CDP key against a local Coinbase that
// verifies the JWT as Coinbase documents, answers the pay URL, and reads
// the session's purchases through the Transaction Status API.
const TIMEOUT_MS = 2_000

describe.each(['ec', 'ed25519'] as const)('with a CDP %s key', (kind) => {
  const key = createCdpKey(kind)
  let cb: FakeCoinbase
  let t: TestInstance
  let alice: FundingUser
  beforeAll(async () => {
    // The fake's clock is the server's: JWT nbf/exp are checked against it.
    cb = await startFakeCoinbase({ key, now: () => t.clock.now() })
    t = await getTestInstance({
      appSettings: { funding: allFundingOptions },
      funding: {
        coinbase: { apiUrl: cb.url, payUrl: 'https://pay.coinbase.com', timeoutMs: TIMEOUT_MS },
      },
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
  afterEach(() => {
    cb.setMode('ok')
    vi.useRealTimers()
  })

  const session = (body: Record<string, unknown>, token = alice.token) =>
    t.request(routes.fundingCoinbaseSession, { token, body })
  const status = (partnerUserId: string, token = alice.token) =>
    t.request(`${routes.fundingCoinbaseStatus}?partner_user_id=${partnerUserId}`, { token })

  it('mints a session token for the wallet on Base and answers the pay URL', async () => {
    const res = await session({
      chain: 8453,
      address: alice.ethereum,
      asset: 'USDC',
      amount: '25',
      experience: 'buy',
    })
    expect(res.status).toBe(200)
    const minted = cb.sessions.at(-1)
    expect(minted?.body).toMatchObject({
      addresses: [{ address: alice.ethereum, blockchains: ['base'] }],
      assets: ['USDC'],
    })
    expect(minted?.claims).toMatchObject({ iss: 'cdp', sub: key.name })
    const url = new URL(res.body.url)
    expect(`${url.origin}${url.pathname}`).toBe('https://pay.coinbase.com/buy/select-asset')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      sessionToken: minted?.token,
      partnerUserRef: res.body.partner_user_id,
      defaultNetwork: 'base',
      defaultAsset: 'USDC',
      presetCryptoAmount: '25',
      defaultExperience: 'buy',
    })
    expect(res.body.partner_user_id).toMatch(/^[A-Za-z0-9_-]{38}$/)
  })

  it('exchange transfers (send) and Solana wallets', async () => {
    const res = await session({
      chain: 'solana',
      address: alice.solana,
      asset: 'SOL',
      experience: 'send',
    })
    expect(res.status).toBe(200)
    expect(cb.sessions.at(-1)?.body.addresses).toEqual([
      { address: alice.solana, blockchains: ['solana'] },
    ])
    expect(new URL(res.body.url).searchParams.get('defaultExperience')).toBe('send')
  })

  it("a chain Coinbase does not serve: 400 FUNDING_UNSUPPORTED_CHAIN 'Unsupported chainId'", async () => {
    const before = cb.requests.length
    for (const chain of [56, 11155111, 324]) {
      const res = await session({ chain, address: alice.ethereum, asset: 'ETH', experience: 'buy' })
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'FUNDING_UNSUPPORTED_CHAIN', message: 'Unsupported chainId' },
      })
    }
    expect(cb.requests.length).toBe(before)
  })

  it('the wallet must be of the chain asked for: FUNDING_INVALID_DATA', async () => {
    const res = await session({
      chain: 'solana',
      address: alice.ethereum,
      asset: 'SOL',
      experience: 'buy',
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'FUNDING_INVALID_DATA' } })
  })

  it('bad payloads: 400 INVALID_PAYLOAD', async () => {
    const good = { chain: 1, address: alice.ethereum, asset: 'ETH', experience: 'buy' }
    for (const body of [
      { ...good, chain: -1 },
      { ...good, chain: 'ethereum' },
      { ...good, asset: 'e t h' },
      { ...good, experience: 'sell' },
      { ...good, amount: 'ten' },
      { ...good, address: '' },
    ]) {
      const res = await session(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('INVALID_PAYLOAD')
    }
    const bad = await t.request(`${routes.fundingCoinbaseStatus}?partner_user_id=a`, {
      token: alice.token,
    })
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  })

  it('status: no purchase yet, created and in progress are pending; success and failed map', async () => {
    const started = await session({
      chain: 1,
      address: alice.ethereum,
      asset: 'ETH',
      experience: 'buy',
    })
    const ref: string = started.body.partner_user_id
    expect((await status(ref)).body).toEqual({ status: 'pending' })
    cb.addTransaction(ref, 'ONRAMP_TRANSACTION_STATUS_CREATED')
    expect((await status(ref)).body).toEqual({ status: 'pending' })
    cb.addTransaction(ref, 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS')
    expect((await status(ref)).body).toEqual({ status: 'pending' })
    cb.addTransaction(ref, 'ONRAMP_TRANSACTION_STATUS_SUCCESS')
    expect((await status(ref)).body).toEqual({ status: 'success' })
    const again = await session({
      chain: 1,
      address: alice.ethereum,
      asset: 'ETH',
      experience: 'buy',
    })
    cb.addTransaction(again.body.partner_user_id, 'ONRAMP_TRANSACTION_STATUS_FAILED')
    expect((await status(again.body.partner_user_id)).body).toEqual({ status: 'failure' })
    // Each session has its own id: the first one's success is not the second's.
    expect((await status(ref)).body).toEqual({ status: 'success' })
  })

  it('Coinbase 5xx or an answer that is not JSON: 502 ONRAMP_PROVIDER_ERROR', async () => {
    const started = await session({
      chain: 1,
      address: alice.ethereum,
      asset: 'ETH',
      experience: 'buy',
    })
    for (const mode of ['error', 'garbage'] as const) {
      cb.setMode(mode)
      const minted = await session({
        chain: 1,
        address: alice.ethereum,
        asset: 'ETH',
        experience: 'buy',
      })
      expect(minted).toMatchObject({ status: 502, body: { code: 'ONRAMP_PROVIDER_ERROR' } })
      expect(minted.body.message).toBe(
        'The funding provider could not be reached. Please try again.',
      )
      expect(await status(started.body.partner_user_id)).toMatchObject({
        status: 502,
        body: { code: 'ONRAMP_PROVIDER_ERROR' },
      })
    }
  })

  it('Coinbase never answering: ONRAMP_PROVIDER_ERROR once the timeout passes', async () => {
    cb.setMode('hang')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const arrived = cb.nextRequest()
    const pending = session({ chain: 1, address: alice.ethereum, asset: 'ETH', experience: 'buy' })
    await arrived
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS)
    expect(await pending).toMatchObject({ status: 502, body: { code: 'ONRAMP_PROVIDER_ERROR' } })
  })

  it('a JWT Coinbase refuses (another key of the same name): 401 there, 502 here', async () => {
    const other = createCdpKey(kind, key.name)
    await t.server.setAppProviderCredentials(t.app.id, {
      provider: 'coinbase-onramp',
      api_key_name: key.name,
      api_key_secret: other.secret,
    })
    try {
      const res = await session({
        chain: 1,
        address: alice.ethereum,
        asset: 'ETH',
        experience: 'buy',
      })
      expect(res).toMatchObject({ status: 502, body: { code: 'ONRAMP_PROVIDER_ERROR' } })
      expect(cb.requests.at(-1)).toMatchObject({ path: '/onramp/v1/token', status: 401 })
    } finally {
      await t.server.setAppProviderCredentials(t.app.id, {
        provider: 'coinbase-onramp',
        api_key_name: key.name,
        api_key_secret: key.secret,
      })
    }
  })
})
