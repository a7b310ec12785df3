import {
  coinbaseSessionRequestSchema,
  coinbaseSessionResponseSchema,
  coinbaseStatusQuerySchema,
  coinbaseStatusResponseSchema,
  moonpaySignRequestSchema,
  moonpaySignResponseSchema,
  routes,
  splTokenInfoQuerySchema,
  splTokenInfoResponseSchema,
} from '@latchkey/protocol'
import { clientIp } from '../http/client-ip.ts'
import { defineRoute } from '../http/route.ts'
import { limitPerIp } from '../rate-limit/limit-per-ip.ts'
import { coinbaseSession, coinbaseStatus, fundingServicesOf, moonpaySign } from './service.ts'

// Funding (spec 03 "Funding"; docs/funding.md): the calls the modal makes
// to our server. The on-ramp routes need a signed-in user and only ever
// serve that user's own wallets (funding/own-wallet.ts). The routes that
// call Coinbase or the Solana RPC count against the caller IP's
// `rateLimits.tokenPricesPerIp` (own buckets), so no client turns our
// server into a relay that spends the app's provider quota.

/** `POST /api/v1/funding/moonpay/sign`: a signed MoonPay widget URL for one of the user's wallets. */
export const moonpaySignRoute = defineRoute({
  method: 'post',
  path: routes.fundingMoonpaySign,
  summary: "A MoonPay buy-widget URL for one of the user's wallets, signed with the app's key",
  tags: ['funding'],
  auth: 'user',
  body: moonpaySignRequestSchema,
  response: moonpaySignResponseSchema,
  handler: ({ services, app, auth, body }) => moonpaySign(services, app, auth, body),
})

/** `POST /api/v1/funding/coinbase/session`: a Coinbase Onramp pay URL with a fresh session token. */
export const coinbaseSessionRoute = defineRoute({
  method: 'post',
  path: routes.fundingCoinbaseSession,
  summary: "A Coinbase Onramp pay URL for one of the user's wallets (session token minted here)",
  tags: ['funding'],
  auth: 'user',
  body: coinbaseSessionRequestSchema,
  response: coinbaseSessionResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    const ip = clientIp(c, services)
    await limitPerIp(services, 'coinbase-onramp', services.config.rateLimits.tokenPricesPerIp, ip)
    return coinbaseSession(services, app, auth, body, ip)
  },
})

/** `GET /api/v1/funding/coinbase/status?partner_user_id=`: the outcome of the user's latest purchase. */
export const coinbaseStatusRoute = defineRoute({
  method: 'get',
  path: routes.fundingCoinbaseStatus,
  summary: "The outcome of the user's latest Coinbase Onramp purchase in a session",
  tags: ['funding'],
  auth: 'user',
  query: coinbaseStatusQuerySchema,
  response: coinbaseStatusResponseSchema,
  handler: async ({ c, services, app, auth, query }) => {
    const rule = services.config.rateLimits.tokenPricesPerIp
    await limitPerIp(services, 'coinbase-onramp', rule, clientIp(c, services))
    return coinbaseStatus(services, app, auth, query.partner_user_id)
  },
})

/**
 * `GET /api/v1/spl_token_info?mint_address=&cluster=` (spec 03 §7): public
 * and app-scoped like the token price, counted against the caller IP's
 * `rateLimits.tokenPricesPerIp` (its own bucket).
 */
export const splTokenInfoRoute = defineRoute({
  method: 'get',
  path: routes.splTokenInfo,
  summary: "A Solana mint's symbol and decimals (docs/funding.md)",
  tags: ['funding'],
  auth: 'none',
  query: splTokenInfoQuerySchema,
  response: splTokenInfoResponseSchema,
  handler: async ({ c, services, query }) => {
    const rule = services.config.rateLimits.tokenPricesPerIp
    await limitPerIp(services, 'spl-token-info', rule, clientIp(c, services))
    return fundingServicesOf(services).splTokens.lookup(query.cluster, query.mint_address)
  },
})

export const fundingRoutes = [
  moonpaySignRoute,
  coinbaseSessionRoute,
  coinbaseStatusRoute,
  splTokenInfoRoute,
]
