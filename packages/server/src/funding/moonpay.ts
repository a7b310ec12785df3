import { createHmac, randomUUID } from 'node:crypto'

/**
 * MoonPay's URL signing (dev.moonpay.com "Enhance security using signed
 * URLs"): an HMAC-SHA256 of the URL's query string — from the `?`, every
 * value already URL-encoded — under the secret key, in base64. The widget
 * refuses a `walletAddress` without it.
 *
 * @example
 * moonpaySignature('https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth', 'sk_test_key')
 */
export function moonpaySignature(originalUrl: string, secretKey: string): string {
  return createHmac('sha256', secretKey).update(new URL(originalUrl).search).digest('base64')
}

/** `originalUrl` with `&signature=` appended last, URL-encoded, as MoonPay documents. */
export function signMoonpayUrl(originalUrl: string, secretKey: string): string {
  return `${originalUrl}&signature=${encodeURIComponent(moonpaySignature(originalUrl, secretKey))}`
}

export interface MoonpayWidgetParameters {
  /** The app's publishable key. */
  apiKey: string
  /** MoonPay currency code: eth, eth_base, usdc, usdc_sol, sol, … */
  currencyCode: string
  walletAddress: string
  /** Ours, random: the modal polls `/v1/transactions/ext/{id}` with it. */
  externalTransactionId: string
  quoteCurrencyAmount?: string
  /** The accent colour, `#RRGGBB`. */
  colorCode?: string
  theme?: 'light' | 'dark'
  paymentMethod?: 'credit_debit_card' | 'apple_pay' | 'google_pay'
}

/**
 * The signed buy-widget URL: `widgetUrl?apiKey=…&currencyCode=…&walletAddress=…&
 * externalTransactionId=…[&quoteCurrencyAmount=…][&colorCode=…][&theme=…]
 * [&paymentMethod=…]&signature=…`, each value encoded with
 * encodeURIComponent (so the signed string is exactly what MoonPay reads).
 *
 * @example
 * const url = moonpayWidgetUrl('https://buy.moonpay.com', { apiKey, currencyCode: 'eth', walletAddress, externalTransactionId }, secret)
 */
export function moonpayWidgetUrl(
  widgetUrl: string,
  parameters: MoonpayWidgetParameters,
  secretKey: string,
): string {
  const query = Object.entries(parameters)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&')
  return signMoonpayUrl(`${widgetUrl}?${query}`, secretKey)
}

/** A fresh external transaction id (a UUID: MoonPay takes any string, ours must not be guessable). */
export const newExternalTransactionId = (): string => randomUUID()
