import { z } from 'zod'

// Spec 03 §7 "Prices and tokens": GET /api/v1/token_price?chainId=&tokenSymbol=
// answers `usd`; chain 0 with symbol SOL is Solana.

/** The chain id that, with symbol SOL, asks for Solana's price (spec 03 §7). */
export const SOLANA_PRICE_CHAIN_ID = 0

/** Query of `GET /api/v1/token_price`: an EIP-155 chain id (0 for Solana) and a token symbol. */
export const tokenPriceQuerySchema = z.object({
  chainId: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,14})$/, 'Expected a chain id')
    .transform(Number),
  tokenSymbol: z
    .string()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9._-]+$/, 'Expected a token symbol'),
})
export type TokenPriceQuery = z.input<typeof tokenPriceQuerySchema>

/** The token's price in US dollars (display only). */
export const tokenPriceResponseSchema = z.object({ usd: z.number().nonnegative() })
export type TokenPriceResponse = z.infer<typeof tokenPriceResponseSchema>
