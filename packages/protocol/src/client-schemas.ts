import * as z from 'zod/mini'

// The schemas and constants the browser SDK needs at run time: the cross-app
// popup's traffic (spec 03 §9: the provider page's RPC request and the
// messages it posts back) and the smart-wallet chain list. Written with
// `zod/mini`, whose functions tree-shake, and apart from the schemas barrel:
// a page that parses these keeps a few KB of zod instead of classic zod and
// every schema of the protocol (issue 23's bundle cap; a module of classic
// zod schemas is kept whole). `@latchkey/protocol/schemas` re-exports all of it.

/** Query parameter the provider's page reads (`?latchkey_cross_app=authorize|transact`). */
export const CROSS_APP_QUERY = 'latchkey_cross_app'

/** Spec 03 §9 "Cross-app popup wait": 120000 ms. */
export const CROSS_APP_POPUP_TIMEOUT_MS = 120_000
/** Spec 03 §9: the requester checks every 300 ms whether the popup was closed. */
export const CROSS_APP_CLOSED_POLL_MS = 300
/** Spec 03 §9: the popup is 440 x 680. */
export const CROSS_APP_POPUP_SIZE = { width: 440, height: 680 } as const

/** The RPC request a transact popup carries (`request`: base64url of its JSON). */
export const crossAppRpcRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('personal_sign'), params: z.tuple([z.string(), z.string()]) }),
  z.object({
    method: z.literal('eth_signTypedData_v4'),
    params: z.tuple([z.string(), z.union([z.string(), z.record(z.string(), z.unknown())])]),
  }),
  z.object({
    method: z.literal('eth_sendTransaction'),
    params: z.tuple([z.record(z.string(), z.unknown())]),
  }),
])
export type CrossAppRpcRequest = z.infer<typeof crossAppRpcRequestSchema>

/** Message prefix of every cross-app postMessage (provider page → requester page). */
export const CROSS_APP_MESSAGE_TYPE = 'latchkey:cross-app'
/** What the provider's page posts to `window.opener`, to the requester's exact origin. */
export const crossAppMessageSchema = z.discriminatedUnion('result', [
  z.object({
    type: z.literal(CROSS_APP_MESSAGE_TYPE),
    result: z.literal('code'),
    code: z.string(),
    state: z.string(),
  }),
  z.object({
    type: z.literal(CROSS_APP_MESSAGE_TYPE),
    result: z.literal('rejected'),
    state: z.string(),
  }),
  z.object({
    type: z.literal(CROSS_APP_MESSAGE_TYPE),
    result: z.literal('error'),
    state: z.string(),
    code: z.string().check(z.maxLength(100)),
  }),
  z.object({
    type: z.literal(CROSS_APP_MESSAGE_TYPE),
    result: z.literal('signed'),
    state: z.string(),
    data: z.string(),
  }),
])
export type CrossAppMessage = z.infer<typeof crossAppMessageSchema>

/**
 * Spec 01 §5: smart-wallet chains outside these 10 ids get an informational
 * warning (Ethereum, Optimism, BNB Chain, Gnosis, Polygon, Base, Arbitrum One,
 * Celo, Sepolia, Base Sepolia). Here, zod-free, for the browser's check.
 */
export const SMART_WALLET_CHAIN_IDS = [1, 10, 56, 100, 137, 8453, 42161, 42220, 11155111, 84532]
