import { routes } from '@latchkey/protocol/routes'
import type { CoinbaseSessionRequest, CoinbaseSessionResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'

export type CreateCoinbaseSessionParameters = CoinbaseSessionRequest
export interface CreateCoinbaseSessionReturnType {
  /** Coinbase Onramp's pay URL (with the session token) to open in the popup. */
  url: string
  /** Pass it to `watchCoinbaseStatus` / `coinbaseStatus`. */
  partnerUserId: string
}

/**
 * Asks the Latchkey server to start a Coinbase Onramp purchase for one of
 * the user's own wallets (spec 03 §7 "Card on-ramp": the Coinbase-style
 * start call returns a partner user id). The server mints the session token
 * with the app's key. Throws NOT_AUTHENTICATED when logged out,
 * FUNDING_UNSUPPORTED_CHAIN ('Unsupported chainId') off Coinbase's chains.
 *
 * @example
 * const { url, partnerUserId } = await createCoinbaseSession(client, {
 *   chain: 8453, address, asset: 'ETH', amount: '0.05', experience: 'buy',
 * })
 */
export async function createCoinbaseSession(
  client: LatchkeyClient,
  body: CreateCoinbaseSessionParameters,
): Promise<CreateCoinbaseSessionReturnType> {
  const answer = await client.authedRequest<CoinbaseSessionResponse>(
    routes.fundingCoinbaseSession,
    body,
  )
  return { url: answer.url, partnerUserId: answer.partner_user_id }
}
