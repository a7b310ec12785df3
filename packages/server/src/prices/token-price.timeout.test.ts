import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { silentLogger } from '../config.ts'
import { type FakeCoinGecko, startFakeCoinGecko } from '../test/fakes/coingecko.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Spec 03 §7 "Prices and tokens": a failed price fetch is logged and no fiat
// price is shown. Here CoinGecko takes the call and never answers: the
// adapter gives up at its timeout (injected short: 150 ms instead of 10 s),
// the route answers 424 PRICE_UNAVAILABLE, which the SDK's getTokenPrice
// turns into null (packages/core/src/transactions/prices.test.ts) — no USD.

const TIMEOUT_MS = 150
const price = (chainId: number, tokenSymbol: string) =>
  `${routes.tokenPrice}?${new URLSearchParams({ chainId: String(chainId), tokenSymbol })}`

let cg: FakeCoinGecko
let t: TestInstance
const warn = vi.fn()
beforeAll(async () => {
  cg = await startFakeCoinGecko({ prices: { ethereum: 3012.5, solana: 142.25 } })
  cg.setMode('silent')
  t = await getTestInstance({
    prices: { apiUrl: cg.url, timeoutMs: TIMEOUT_MS },
    logger: { ...silentLogger, warn },
  })
})
afterAll(async () => {
  await t?.close()
  await cg?.close()
})

describe('GET /api/v1/token_price when CoinGecko never answers', () => {
  it("answers 424 PRICE_UNAVAILABLE once the adapter's timeout fires, and logs the timeout once", async () => {
    const startedAt = performance.now()
    // Two requests while the call hangs: they share it.
    const [eth, sol] = await Promise.all([t.request(price(1, 'ETH')), t.request(price(0, 'SOL'))])
    const took = performance.now() - startedAt
    expect(eth).toMatchObject({ status: 424, body: { code: 'PRICE_UNAVAILABLE' } })
    expect(sol).toMatchObject({ status: 424, body: { code: 'PRICE_UNAVAILABLE' } })
    expect(eth.body.usd).toBeUndefined()
    // CoinGecko got the one call and held it; the adapter stopped waiting at its timeout.
    expect(cg.calls).toHaveLength(1)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]?.[0]).toBe(
      `token prices: the price source failed: ${new URL(cg.url).host} could not be reached (timed out)`,
    )
    // Bounded by the injected timeout, far from the 10 s default.
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 10)
    expect(took).toBeLessThan(5_000)
  })

  it('remembers the failure for the minute: no new call, still no price', async () => {
    const res = await t.request(price(1, 'ETH'))
    expect(res).toMatchObject({ status: 424, body: { code: 'PRICE_UNAVAILABLE' } })
    expect(cg.calls).toHaveLength(1)
    expect(warn).toHaveBeenCalledTimes(1)
  })
})
