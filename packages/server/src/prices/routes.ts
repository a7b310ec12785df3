import { routes, tokenPriceQuerySchema, tokenPriceResponseSchema } from '@latchkey/protocol'
import { ApiError } from '../errors.ts'
import { clientIp } from '../http/client-ip.ts'
import { defineRoute } from '../http/route.ts'
import { limitPerIp } from '../rate-limit/limit-per-ip.ts'

/**
 * Spec 03 §7 "Prices and tokens": a token's USD price, for the dollar values
 * of the confirm screens. Public and app-scoped like the app config (no user
 * needed); each call counts against the caller IP's
 * `rateLimits.tokenPricesPerIp`. Prices off: 404 PRICES_NOT_CONFIGURED.
 */
export const tokenPriceRoute = defineRoute({
  method: 'get',
  path: routes.tokenPrice,
  summary: "A token's USD price by chain id (0: Solana) and symbol (docs/transactions.md)",
  tags: ['prices'],
  auth: 'none',
  query: tokenPriceQuerySchema,
  response: tokenPriceResponseSchema,
  handler: async ({ c, services, query }) => {
    if (!services.prices) throw new ApiError('PRICES_NOT_CONFIGURED')
    const rule = services.config.rateLimits.tokenPricesPerIp
    await limitPerIp(services, 'token-price', rule, clientIp(c, services))
    return { usd: await services.prices.usdPrice(query.tokenSymbol) }
  },
})
