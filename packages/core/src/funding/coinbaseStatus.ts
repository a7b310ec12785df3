import { routes } from '@latchkey/protocol/routes'
import type { CoinbaseStatusResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'

export type CoinbaseStatusReturnType = CoinbaseStatusResponse['status']

/**
 * The outcome of the user's latest Coinbase Onramp purchase under this
 * partner user id (spec 03 §7: "Its status read takes partnerUserId and
 * returns success or failure"): 'pending', 'success' or 'failure'.
 *
 * @example
 * if ((await coinbaseStatus(client, partnerUserId)) === 'success') …
 */
export async function coinbaseStatus(
  client: LatchkeyClient,
  partnerUserId: string,
): Promise<CoinbaseStatusReturnType> {
  const query = new URLSearchParams({ partner_user_id: partnerUserId })
  const answer = await client.authedRequest<CoinbaseStatusResponse>(
    `${routes.fundingCoinbaseStatus}?${query}`,
  )
  return answer.status
}
