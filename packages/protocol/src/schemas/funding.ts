import { z } from 'zod'

// Spec 03 "Funding" (§2, §3 "Funding request" / "Funding option", §7 "Card
// on-ramp", "Bridging", "Prices and tokens"); docs/funding.md. The app's
// funding settings as `GET /api/v1/apps/:id` returns them, and the calls
// the modal makes to our server. Provider secrets never appear here: they
// are provider credentials on the server (sealed at rest).

/** How a user can add funds (spec 03 §3 "Funding option"; `manual` is Receive funds). */
export const fundingMethodSchema = z.enum(['card', 'exchange', 'wallets', 'manual'])
export type FundingMethod = z.infer<typeof fundingMethodSchema>

/** The card on-ramps (spec 03 §1): one MoonPay-style, one Coinbase-style. */
export const cardProviderSchema = z.enum(['moonpay', 'coinbase'])
export type CardProvider = z.infer<typeof cardProviderSchema>

/** One option the chooser offers; `provider` for card (moonpay or coinbase) and exchange (coinbase). */
export const fundingOptionSchema = z.object({
  method: fundingMethodSchema,
  provider: cardProviderSchema.nullable(),
})
export type FundingOption = z.infer<typeof fundingOptionSchema>

/** `funding_config` of the app config: null when the app has funding off. */
export const fundingConfigSchema = z.object({
  /** What the chooser offers, in order; empty means funding is not enabled. */
  options: z.array(fundingOptionSchema),
  /** The amount the chooser asks for when the call names none (a decimal string, e.g. '0.1'). */
  default_recommended_amount: z.string(),
  /** Native currency or USDC, when the call names none. */
  default_recommended_asset: z.enum(['native-currency', 'USDC']),
  /** Receive and wallet transfers may bridge from the other chain (spec 03 "Solana bridge-funding"). */
  cross_chain_bridging_enabled: z.boolean(),
  /** MoonPay: the publishable key the modal polls status with, and the hosts to use. */
  moonpay: z
    .object({
      publishable_key: z.string(),
      sandbox: z.boolean(),
      /** MoonPay's REST API (status polls): https://api.moonpay.com, or a test server. */
      api_url: z.string(),
    })
    .nullable(),
  /** The bridge-quote service (the documented `/quote` and `/requests/v2`); null: bridging off. */
  bridge: z.object({ api_url: z.string(), testnet_api_url: z.string() }).nullable(),
})
export type FundingConfig = z.infer<typeof fundingConfigSchema>

const decimalAmount = z
  .string()
  .max(40)
  .regex(/^\d+(\.\d+)?$/, 'Expected a decimal amount')

/**
 * `POST /api/v1/funding/moonpay/sign` (user): the server builds the widget
 * URL for one of the user's own wallets and signs it with the app's MoonPay
 * secret key (HMAC-SHA256 of the query, base64, as MoonPay documents).
 */
export const moonpaySignRequestSchema = z.object({
  address: z.string().min(1).max(128),
  /** MoonPay's currency code (eth, eth_base, usdc, usdc_sol, sol, …). */
  currency_code: z.string().regex(/^[a-z0-9_]{2,32}$/, 'Expected a MoonPay currency code'),
  quote_currency_amount: decimalAmount.optional(),
  use_sandbox: z.boolean(),
  ui_config: z
    .object({
      accent_color: z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/)
        .optional(),
      theme: z.enum(['light', 'dark']).optional(),
    })
    .optional(),
  payment_method: z.enum(['credit_debit_card', 'apple_pay', 'google_pay']).optional(),
})
export type MoonpaySignRequest = z.input<typeof moonpaySignRequestSchema>
export const moonpaySignResponseSchema = z.object({
  signed_url: z.string(),
  external_transaction_id: z.string(),
})
export type MoonpaySignResponse = z.infer<typeof moonpaySignResponseSchema>

/**
 * `POST /api/v1/funding/coinbase/session` (user): the server mints a
 * Coinbase Onramp session token with the app's CDP key for the user's own
 * addresses and answers the pay URL to open in the popup.
 */
export const coinbaseSessionRequestSchema = z.object({
  /** EIP-155 chain id of the wallet (Ethereum, Base, Optimism, Polygon, Arbitrum), or 'solana'. */
  chain: z.union([z.number().int().positive(), z.literal('solana')]),
  address: z.string().min(1).max(128),
  /** 'ETH', 'USDC', 'SOL', … */
  asset: z.string().regex(/^[A-Z0-9]{2,12}$/),
  amount: decimalAmount.optional(),
  /** card: Coinbase's guest card checkout; exchange: the user's Coinbase account. */
  experience: z.enum(['buy', 'send']),
})
export type CoinbaseSessionRequest = z.input<typeof coinbaseSessionRequestSchema>
export const coinbaseSessionResponseSchema = z.object({
  url: z.string(),
  partner_user_id: z.string(),
})
export type CoinbaseSessionResponse = z.infer<typeof coinbaseSessionResponseSchema>

/** `GET /api/v1/funding/coinbase/status?partner_user_id=` (user): the latest transaction's outcome. */
export const coinbaseStatusQuerySchema = z.object({
  partner_user_id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
})
export const coinbaseStatusResponseSchema = z.object({
  status: z.enum(['pending', 'success', 'failure']),
})
export type CoinbaseStatusResponse = z.infer<typeof coinbaseStatusResponseSchema>

/** `GET /api/v1/spl_token_info?mint_address=&cluster=` (spec 03 §7): a mint's symbol and decimals. */
export const splTokenInfoQuerySchema = z.object({
  mint_address: z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Expected a mint address'),
  cluster: z.enum(['mainnet-beta', 'devnet', 'testnet']),
})
export type SplTokenInfoQuery = z.input<typeof splTokenInfoQuerySchema>
export const splTokenInfoResponseSchema = z.object({
  symbol: z.string(),
  decimals: z.number().int().min(0).max(255),
})
export type SplTokenInfoResponse = z.infer<typeof splTokenInfoResponseSchema>
