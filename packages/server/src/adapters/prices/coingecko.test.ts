import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfigFromEnv } from '../../config.ts'
import { type FakeCoinGecko, startFakeCoinGecko } from '../../test/fakes/coingecko.ts'
import { CoinGeckoPriceSource } from './coingecko.ts'
import { PriceSourceError } from './types.ts'

// The adapter against a local server that speaks CoinGecko's simple/price.

const KEY = 'CG-demo-key-0123456789'
let cg: FakeCoinGecko
beforeAll(async () => {
  cg = await startFakeCoinGecko({ prices: { ethereum: 3012.5, solana: 142.25 }, apiKey: KEY })
})
afterAll(() => cg.close())

describe('CoinGeckoPriceSource', () => {
  it('asks simple/price for the ids in USD, with the key in x-cg-demo-api-key, and keeps the ids it got', async () => {
    const source = new CoinGeckoPriceSource({ apiUrl: `${cg.url}/`, apiKey: KEY })
    const prices = await source.usdPrices(['ethereum', 'solana', 'not-a-coin'])
    expect(prices).toEqual({ ethereum: 3012.5, solana: 142.25 })
    expect(cg.calls.at(-1)).toEqual({ ids: ['ethereum', 'solana', 'not-a-coin'], key: KEY })
  })

  it('sends a Pro key in the header it is told to use', async () => {
    const pro = await startFakeCoinGecko({
      prices: { ethereum: 1 },
      apiKey: KEY,
      keyHeader: 'x-cg-pro-api-key',
    })
    try {
      const source = new CoinGeckoPriceSource({
        apiUrl: pro.url,
        apiKey: KEY,
        apiKeyHeader: 'x-cg-pro-api-key',
      })
      expect(await source.usdPrices(['ethereum'])).toEqual({ ethereum: 1 })
    } finally {
      await pro.close()
    }
  })

  it("fails with the status and CoinGecko's error code, never the key", async () => {
    const source = new CoinGeckoPriceSource({ apiUrl: cg.url, apiKey: 'CG-wrong-key' })
    const error = await source.usdPrices(['ethereum']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PriceSourceError)
    expect((error as Error).message).toBe(`${new URL(cg.url).host} answered 401, error_code 10002`)
    expect((error as Error).message).not.toContain('CG-wrong-key')
    const keyless = new CoinGeckoPriceSource({ apiUrl: cg.url })
    await expect(keyless.usdPrices(['ethereum'])).rejects.toThrow(/answered 401, error_code 10002/)
  })

  it('fails on a 429 or a 500, and on a host that cannot be reached', async () => {
    const source = new CoinGeckoPriceSource({ apiUrl: cg.url, apiKey: KEY })
    cg.setMode('rate-limited')
    await expect(source.usdPrices(['ethereum'])).rejects.toThrow(/answered 429, error_code 429/)
    cg.setMode('error')
    await expect(source.usdPrices(['ethereum'])).rejects.toThrow(/answered 500$/)
    cg.setMode('ok')
    const closed = await startFakeCoinGecko()
    await closed.close()
    const gone = new CoinGeckoPriceSource({ apiUrl: closed.url })
    await expect(gone.usdPrices(['ethereum'])).rejects.toThrow(/could not be reached \(failed\)/)
  })

  it('refuses a URL that is not a plain http(s) API root, and http in production', () => {
    for (const apiUrl of ['not a url', 'ftp://x.test', 'https://u:p@x.test', 'https://x.test/?a=1'])
      expect(() => new CoinGeckoPriceSource({ apiUrl })).toThrow(/LATCHKEY_PRICE_API_URL/)
    expect(
      () => new CoinGeckoPriceSource({ apiUrl: 'http://prices.test' }, { production: true }),
    ).toThrow(/https in production/)
    expect(
      () => new CoinGeckoPriceSource({ apiUrl: 'http://127.0.0.1:1' }, { production: true }),
    ).not.toThrow()
    expect(
      () => new CoinGeckoPriceSource({ apiUrl: 'https://x.test', apiKeyHeader: 'x key' }),
    ).toThrow(/LATCHKEY_PRICE_API_KEY_HEADER/)
  })
})

describe('prices from the environment', () => {
  it('reads LATCHKEY_PRICE_API_URL, _KEY and _KEY_HEADER; without the URL prices are off', () => {
    expect(
      loadConfigFromEnv({
        LATCHKEY_PRICE_API_URL: 'https://pro-api.coingecko.com/api/v3',
        LATCHKEY_PRICE_API_KEY: KEY,
        LATCHKEY_PRICE_API_KEY_HEADER: 'x-cg-pro-api-key',
      }).prices,
    ).toEqual({
      apiUrl: 'https://pro-api.coingecko.com/api/v3',
      apiKey: KEY,
      apiKeyHeader: 'x-cg-pro-api-key',
    })
    expect(loadConfigFromEnv({}).prices).toBeUndefined()
  })

  it('refuses a key without a URL rather than running with prices silently off', () => {
    expect(() => loadConfigFromEnv({ LATCHKEY_PRICE_API_KEY: KEY })).toThrow(
      /LATCHKEY_PRICE_API_KEY needs LATCHKEY_PRICE_API_URL/,
    )
  })
})
