import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { silentLogger } from '../config.ts'
import { type FakeCoinGecko, startFakeCoinGecko } from '../test/fakes/coingecko.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { PRICE_CACHE_TTL_MS } from './service.ts'
import { PRICED_COINGECKO_IDS } from './symbols.ts'

// GET /api/v1/token_price (spec 03 §7 "Prices and tokens") in process,
// against a local server that speaks CoinGecko's simple/price.

const KEY = 'CG-demo-key-0123456789'
const price = (chainId: number | string, tokenSymbol: string) =>
  `${routes.tokenPrice}?${new URLSearchParams({ chainId: String(chainId), tokenSymbol })}`

let cg: FakeCoinGecko
let t: TestInstance
const warn = vi.fn()
beforeAll(async () => {
  // CoinGecko knows every id of the table (a missing one is logged: service.test.ts).
  const prices = Object.fromEntries(PRICED_COINGECKO_IDS.map((id) => [id, 1]))
  cg = await startFakeCoinGecko({
    prices: { ...prices, ethereum: 3012.5, solana: 142.25 },
    apiKey: KEY,
  })
  t = await getTestInstance({
    prices: { apiUrl: cg.url, apiKey: KEY },
    logger: { ...silentLogger, warn },
  })
})
afterAll(async () => {
  await t?.close()
  await cg?.close()
})

describe('GET /api/v1/token_price', () => {
  it('answers the USD price, Solana as chain 0 with SOL, from one cached CoinGecko call with the key', async () => {
    const eth = await t.request(price(1, 'ETH'), { origin: TEST_ORIGIN })
    expect(eth).toMatchObject({ status: 200, body: { usd: 3012.5 } })
    expect((await t.request(price(8453, 'eth'))).body).toEqual({ usd: 3012.5 })
    expect((await t.request(price(0, 'SOL'))).body).toEqual({ usd: 142.25 })
    expect(cg.calls).toHaveLength(1)
    expect(cg.calls[0]?.key).toBe(KEY)
    expect(cg.calls[0]?.ids).toContain('ethereum')
  })

  it('asks CoinGecko again once the answer is 60 s old', async () => {
    cg.prices = { ...cg.prices, ethereum: 3100 }
    t.clock.advance(PRICE_CACHE_TTL_MS - 1)
    expect((await t.request(price(1, 'ETH'))).body).toEqual({ usd: 3012.5 })
    expect(cg.calls).toHaveLength(1)
    t.clock.advance(1)
    expect((await t.request(price(1, 'ETH'))).body).toEqual({ usd: 3100 })
    expect(cg.calls).toHaveLength(2)
  })

  it('answers 424 PRICE_UNAVAILABLE when CoinGecko fails, logs it once and waits a minute to ask again', async () => {
    cg.setMode('rate-limited')
    t.clock.advance(PRICE_CACHE_TTL_MS)
    const failed = await t.request(price(1, 'ETH'))
    expect(failed).toMatchObject({ status: 424, body: { code: 'PRICE_UNAVAILABLE' } })
    expect((await t.request(price(0, 'SOL'))).status).toBe(424)
    expect(cg.calls).toHaveLength(3)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toMatch(/price source failed: .* answered 429, error_code 429$/)
    cg.setMode('ok')
    t.clock.advance(PRICE_CACHE_TTL_MS)
    expect((await t.request(price(1, 'ETH'))).status).toBe(200)
  })

  it('answers 404 UNKNOWN_TOKEN for a symbol outside the table, without asking CoinGecko', async () => {
    const calls = cg.calls.length
    const res = await t.request(price(1, 'PEPE'))
    expect(res).toMatchObject({ status: 404, body: { code: 'UNKNOWN_TOKEN' } })
    expect(cg.calls).toHaveLength(calls)
  })

  it('refuses a malformed query, a missing app id and an origin the app does not allow', async () => {
    for (const path of [price(-1, 'ETH'), price('1e3', 'ETH'), price(1, ''), routes.tokenPrice])
      expect((await t.request(path)).body.code, path).toBe('INVALID_PAYLOAD')
    expect((await t.request(price(1, 'ETH'), { appId: null })).body.code).toBe('MISSING_APP_ID')
    const foreign = await t.request(price(1, 'ETH'), { origin: 'https://evil.test' })
    expect(foreign).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  })
})

describe('GET /api/v1/token_price without a price source', () => {
  it('answers 404 PRICES_NOT_CONFIGURED', async () => {
    const off = await getTestInstance()
    try {
      const res = await off.request(price(1, 'ETH'))
      expect(res).toMatchObject({ status: 404, body: { code: 'PRICES_NOT_CONFIGURED' } })
    } finally {
      await off.close()
    }
  })
})

describe('GET /api/v1/token_price rate limit', () => {
  it('counts calls per IP: past rateLimits.tokenPricesPerIp it is 429 with retry_after', async () => {
    const limited = await getTestInstance({
      prices: { apiUrl: cg.url, apiKey: KEY },
      rateLimits: { tokenPricesPerIp: { limit: 2, windowMs: 60_000 } },
    })
    try {
      for (let i = 0; i < 2; i++) expect((await limited.request(price(1, 'ETH'))).status).toBe(200)
      const refused = await limited.request(price(1, 'ETH'))
      expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
      expect(refused.body.retry_after).toBe(60)
    } finally {
      await limited.close()
    }
  })
})
