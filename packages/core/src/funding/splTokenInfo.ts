import { routes } from '@latchkey/protocol/routes'
import type { SplTokenInfoQuery, SplTokenInfoResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'

export type SplTokenInfoParameters = SplTokenInfoQuery
export type SplTokenInfoReturnType = SplTokenInfoResponse

/**
 * A mint's symbol and decimals from the Latchkey server (`GET
 * /api/v1/spl_token_info`, spec 03 §7 "Prices and tokens"). A failure is
 * TOKEN_DETAILS_FAILED ('Unable to fetch token details', §8), the server's
 * error as its cause.
 *
 * @example
 * await splTokenInfo(client, { mint_address: USDC_SOLANA_MINT.devnet, cluster: 'devnet' })
 * // { symbol: 'USDC', decimals: 6 }
 */
export async function splTokenInfo(
  client: LatchkeyClient,
  query: SplTokenInfoParameters,
): Promise<SplTokenInfoReturnType> {
  const search = new URLSearchParams({ mint_address: query.mint_address, cluster: query.cluster })
  try {
    const { symbol, decimals } = await client.http.request<SplTokenInfoResponse>(
      `${routes.splTokenInfo}?${search}`,
      { method: 'GET' },
    )
    return { symbol, decimals }
  } catch (error) {
    throw new LatchkeyError('TOKEN_DETAILS_FAILED', undefined, { cause: error })
  }
}
