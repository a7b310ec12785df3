import { routes } from '@latchkey/protocol/routes'
import type { MoonpaySignRequest, MoonpaySignResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'

export type SignMoonpayUrlParameters = MoonpaySignRequest
export interface SignMoonpayUrlReturnType {
  /** The MoonPay widget URL to open in the popup, signed by the server. */
  signedUrl: string
  /** The id MoonPay files the purchase under: poll it with `watchMoonpayStatus`. */
  externalTransactionId: string
}

/**
 * Asks the Latchkey server for a signed MoonPay widget URL (spec 03 §7
 * "Card on-ramp": "Sign on-ramp URL"). The server signs with the app's
 * MoonPay secret, which never reaches the browser, and only for one of the
 * logged-in user's own wallets. Throws NOT_AUTHENTICATED when logged out,
 * ONRAMP_NOT_CONFIGURED when the app has no MoonPay keys.
 *
 * @example
 * const { signedUrl, externalTransactionId } = await signMoonpayUrl(client, {
 *   address, currency_code: 'eth_base', quote_currency_amount: '0.05', use_sandbox: false,
 * })
 */
export async function signMoonpayUrl(
  client: LatchkeyClient,
  body: SignMoonpayUrlParameters,
): Promise<SignMoonpayUrlReturnType> {
  const answer = await client.authedRequest<MoonpaySignResponse>(routes.fundingMoonpaySign, body)
  return { signedUrl: answer.signed_url, externalTransactionId: answer.external_transaction_id }
}
