import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PriceSource } from '../adapters/prices/types.ts'
import { PriceSourceError } from '../adapters/prices/types.ts'
import type { Logger } from '../config.ts'
import { PRICE_CACHE_TTL_MS, TokenPrices } from './service.ts'
import { PRICED_COINGECKO_IDS } from './symbols.ts'

// The cache in front of the price source: one upstream call a minute however
// many ask, concurrent misses sharing it, failures remembered and logged once.

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) })
})
afterEach(() => {
  vi.useRealTimers()
})

/** A source whose calls wait until the test answers them. */
function heldSource() {
  const pending: Array<{
    ids: readonly string[]
    answer(prices: Record<string, number>): void
    fail(error: Error): void
  }> = []
  const source: PriceSource = {
    usdPrices: (ids) =>
      new Promise((answer, fail) => {
        pending.push({ ids, answer, fail })
      }),
  }
  return { source, pending }
}

const logger = () => ({
  info: vi.fn<Logger['info']>(),
  warn: vi.fn<Logger['warn']>(),
  error: vi.fn<Logger['error']>(),
})

describe('TokenPrices', () => {
  it('prices every listed id in one call, which concurrent requests share', async () => {
    const { source, pending } = heldSource()
    const prices = new TokenPrices(source, logger(), Date.now)
    const asked = [prices.usdPrice('ETH'), prices.usdPrice('eth'), prices.usdPrice('SOL')]
    expect(pending).toHaveLength(1)
    expect(pending[0]?.ids).toEqual(PRICED_COINGECKO_IDS)
    pending[0]?.answer(Object.fromEntries(PRICED_COINGECKO_IDS.map((id, i) => [id, i + 1])))
    expect(await Promise.all(asked)).toEqual([1, 1, 2])
  })

  it('uses one answer for 60 s, then asks again', async () => {
    const { source, pending } = heldSource()
    const prices = new TokenPrices(source, logger(), Date.now)
    const first = prices.usdPrice('ETH')
    pending[0]?.answer({ ethereum: 3000 })
    expect(await first).toBe(3000)
    vi.advanceTimersByTime(PRICE_CACHE_TTL_MS - 1)
    expect(await prices.usdPrice('ETH')).toBe(3000)
    expect(pending).toHaveLength(1)
    vi.advanceTimersByTime(1)
    const second = prices.usdPrice('ETH')
    expect(pending).toHaveLength(2)
    pending[1]?.answer({ ethereum: 3100 })
    expect(await second).toBe(3100)
  })

  it('logs a failure once and answers PRICE_UNAVAILABLE for the rest of the minute', async () => {
    const { source, pending } = heldSource()
    const log = logger()
    const prices = new TokenPrices(source, log, Date.now)
    const first = prices.usdPrice('ETH')
    pending[0]?.fail(new PriceSourceError('api.coingecko.com answered 429, error_code 429'))
    await expect(first).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE', status: 424 })
    await expect(prices.usdPrice('SOL')).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE' })
    expect(pending).toHaveLength(1)
    expect(log.warn).toHaveBeenCalledTimes(1)
    expect(log.warn).toHaveBeenCalledWith(
      'token prices: the price source failed: api.coingecko.com answered 429, error_code 429',
    )
    vi.advanceTimersByTime(PRICE_CACHE_TTL_MS)
    const retried = prices.usdPrice('ETH')
    pending[1]?.answer({ ethereum: 3000 })
    expect(await retried).toBe(3000)
  })

  it('refuses a symbol outside the table without calling the source', async () => {
    const { source, pending } = heldSource()
    const prices = new TokenPrices(source, logger(), Date.now)
    await expect(prices.usdPrice('PEPE')).rejects.toMatchObject({ code: 'UNKNOWN_TOKEN' })
    expect(pending).toHaveLength(0)
  })

  it('answers PRICE_UNAVAILABLE for a listed token the source did not price, and logs which', async () => {
    const { source, pending } = heldSource()
    const log = logger()
    const prices = new TokenPrices(source, log, Date.now)
    const asked = prices.usdPrice('WBTC')
    pending[0]?.answer(Object.fromEntries(PRICED_COINGECKO_IDS.map((id) => [id, 1])))
    expect(await asked).toBe(1)
    vi.advanceTimersByTime(PRICE_CACHE_TTL_MS)
    const missing = prices.usdPrice('WBTC')
    pending[1]?.answer({ ethereum: 3000 })
    await expect(missing).rejects.toMatchObject({ code: 'PRICE_UNAVAILABLE' })
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('did not price solana'))
  })
})
