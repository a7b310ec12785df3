import { routes } from '@latchkey/protocol/routes'
import type { TokenPriceResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'

export interface GetTokenPriceParameters {
  /** The EIP-155 chain id; 0 for Solana (spec 03 §7 "Prices and tokens"). */
  chainId: number
  /** The token's symbol: 'ETH', 'POL', 'SOL'… */
  tokenSymbol: string
}

/** US dollars per whole token; null when there is no price. */
export type GetTokenPriceReturnType = number | null

/**
 * A token's USD price from the Latchkey server (`GET /api/v1/token_price`,
 * spec 03 §7 "Prices and tokens"), for display only. Never throws: spec 03
 * says a failed price fetch is logged and no fiat price is shown, so a
 * failure — a symbol the server does not price (UNKNOWN_TOKEN), the price
 * source down (PRICE_UNAVAILABLE), the network — is one console warning and
 * null. A server without a price source (PRICES_NOT_CONFIGURED) is a
 * setting, not a failure: null without a warning.
 *
 * @example
 * const usd = await getTokenPrice(client, { chainId: 1, tokenSymbol: 'ETH' }) // 3012.5, or null
 * const sol = await getTokenPrice(client, { chainId: 0, tokenSymbol: 'SOL' })
 */
export async function getTokenPrice(
  client: LatchkeyClient,
  { chainId, tokenSymbol }: GetTokenPriceParameters,
): Promise<GetTokenPriceReturnType> {
  const query = new URLSearchParams({ chainId: String(chainId), tokenSymbol })
  try {
    const { usd } = await client.http.request<TokenPriceResponse>(`${routes.tokenPrice}?${query}`, {
      method: 'GET',
      auth: false,
    })
    if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0)
      throw new Error('the answer is not a price')
    return usd
  } catch (error) {
    if (error instanceof LatchkeyError && error.code === 'PRICES_NOT_CONFIGURED') return null
    const reason =
      error instanceof LatchkeyError
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error)
    console.warn(`Latchkey: no USD price for ${tokenSymbol} on chain ${chainId} (${reason})`)
    return null
  }
}
