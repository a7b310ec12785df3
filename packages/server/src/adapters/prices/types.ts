/**
 * Where token prices come from. One call asks for several CoinGecko coin ids
 * and answers the USD price of each id the source knows; an id it does not
 * know is left out. Production: CoinGecko's simple/price API
 * (`coingecko.ts`); tests: the same adapter against a local server that
 * speaks that API (`test/fakes/coingecko.ts`).
 *
 * @example
 * const prices = await source.usdPrices(['ethereum', 'solana']) // { ethereum: 3012.5, solana: 142.1 }
 */
export interface PriceSource {
  /** Rejects with a {@link PriceSourceError} when the source fails. */
  usdPrices(ids: readonly string[]): Promise<Record<string, number>>
}

/** A price source failed; the message names the host and the status, never the API key (safe to log). */
export class PriceSourceError extends Error {
  override readonly name = 'PriceSourceError'
}
