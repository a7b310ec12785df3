import { CoinGeckoPriceSource } from '../adapters/prices/coingecko.ts'
import type { PriceSource } from '../adapters/prices/types.ts'
import type { LatchkeyServerOptions, Logger } from '../config.ts'
import { ApiError } from '../errors.ts'
import { coinGeckoIdOf, PRICED_COINGECKO_IDS } from './symbols.ts'

/** How long one answer of the price source is used (and a failure remembered): 60 s. */
export const PRICE_CACHE_TTL_MS = 60_000

interface Snapshot {
  /** When the call started (the server's clock). */
  at: number
  prices: Promise<Record<string, number>>
}

/**
 * Token prices for `GET /api/v1/token_price` (spec 03 §7 "Prices and
 * tokens"), kept in this process's memory. One call to the source prices
 * every id of the table (symbols.ts) and is used for 60 s: at most one
 * upstream call a minute per node, however many users and symbols ask.
 * Requests that miss together share the call in flight. A failed call is
 * logged once and remembered for the same 60 s (every request in that
 * minute is PRICE_UNAVAILABLE), so an outage or a 429 upstream is not met
 * with a call per request.
 *
 * @example
 * const prices = new TokenPrices(new CoinGeckoPriceSource({ apiUrl }), logger, Date.now)
 * await prices.usdPrice('ETH') // 3012.5
 */
export class TokenPrices {
  #snapshot: Snapshot | null = null

  constructor(
    private readonly source: PriceSource,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  /**
   * The USD price of `symbol`, whatever the chain (symbols.ts). UNKNOWN_TOKEN
   * for a symbol outside the table; PRICE_UNAVAILABLE when the source failed
   * or did not price it.
   */
  async usdPrice(symbol: string): Promise<number> {
    const id = coinGeckoIdOf(symbol)
    if (!id) throw new ApiError('UNKNOWN_TOKEN', `No price is known for ${symbol}`)
    const usd = (await this.#current())[id]
    if (usd === undefined) throw new ApiError('PRICE_UNAVAILABLE')
    return usd
  }

  #current(): Promise<Record<string, number>> {
    const now = this.now()
    if (this.#snapshot && now - this.#snapshot.at < PRICE_CACHE_TTL_MS) return this.#snapshot.prices
    const prices = this.source.usdPrices(PRICED_COINGECKO_IDS).then(
      (answer) => {
        const missing = PRICED_COINGECKO_IDS.filter((id) => answer[id] === undefined)
        if (missing.length > 0)
          this.logger.warn(`token prices: the price source did not price ${missing.join(', ')}`)
        return answer
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error)
        this.logger.warn(`token prices: the price source failed: ${reason}`)
        throw new ApiError('PRICE_UNAVAILABLE')
      },
    )
    this.#snapshot = { at: now, prices }
    return prices
  }
}

/**
 * The server's token prices: CoinGecko's API at `prices.apiUrl` (checked
 * here, so a bad URL stops the start), or null — prices off — without it.
 */
export function createTokenPrices(
  { prices, production }: Pick<LatchkeyServerOptions, 'prices' | 'production'>,
  logger: Logger,
  now: () => number,
): TokenPrices | null {
  if (!prices) return null
  return new TokenPrices(new CoinGeckoPriceSource(prices, { production }), logger, now)
}
