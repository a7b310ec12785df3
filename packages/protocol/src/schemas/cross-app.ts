import { z } from 'zod'
import { appIdSchema, authModeSchema } from './common.ts'
import { authResponseSchema } from './session.ts'

/*
 * Cross-app login and transact (spec 03 §2, §3, §4, §7, §8 "Cross-app";
 * docs/cross-app.md). A requester app R logs its users in through a provider
 * app P on the same Latchkey server: P's page (in a popup) asks its user for
 * consent and hands R a single-use code bound to a PKCE challenge; R trades
 * it for its own session plus an opaque transact token with which it later
 * asks P's page to sign with P's embedded wallet.
 */

const timestamp = z.number().int()

export { type CrossAppAccountWire, crossAppAccountSchema } from './cross-app-account.ts'

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
export const pkceVerifierSchema = z.string().regex(/^[A-Za-z0-9\-._~]{43,128}$/)
/** RFC 7636 §4.2 S256: base64url of a SHA-256 digest. */
export const pkceChallengeSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/)
/** An exact web origin (`https://app.example`), as the browser reports it. */
export const webOriginSchema = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^/?#\s]+$/, 'An origin has no path')

/** `cross_app` app setting of a provider app (server side; docs/cross-app.md). */
export const crossAppSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  /** Requesters may log in with the account but not ask it to sign. */
  read_only: z.boolean().optional(),
  /** Only these requester apps; every app on the server when absent. */
  allowed_requester_app_ids: z.array(appIdSchema).max(100).optional(),
  /** The provider's own page that hosts the consent and transact screens (http(s) URL). */
  custom_api_url: z.url({ protocol: /^https?$/ }),
})
export type CrossAppSettings = z.infer<typeof crossAppSettingsSchema>

/** GET /api/v1/apps/:provider_app_id/cross-app/details (spec 03 §7). */
export const crossAppDetailsSchema = z.object({
  id: z.string(),
  name: z.string(),
  logo_url: z.string().nullable(),
  custom_api_url: z.string(),
  read_only: z.boolean(),
})
export type CrossAppDetails = z.infer<typeof crossAppDetailsSchema>

/** One entry of GET /api/v1/apps/:app_id/cross-app/connections (spec 03 §3 "Cross-app connection"). */
export const crossAppConnectionSchema = z.object({
  provider_app_id: z.string(),
  provider_app_name: z.string(),
  provider_app_icon_url: z.string().nullable(),
  provider_app_custom_api_url: z.string().nullable(),
  read_only: z.boolean(),
})
export type CrossAppConnection = z.infer<typeof crossAppConnectionSchema>
export const crossAppConnectionsResponseSchema = z.object({
  connections: z.array(crossAppConnectionSchema),
})
export type CrossAppConnectionsResponse = z.infer<typeof crossAppConnectionsResponseSchema>

/** POST /api/v1/cross-app/authorize: the provider's signed-in user accepts (P's page). */
export const crossAppAuthorizeRequestSchema = z.object({
  requester_app_id: appIdSchema,
  code_challenge: pkceChallengeSchema,
  /** The requester page's origin: the code is posted there and nowhere else. */
  origin: webOriginSchema,
})
export type CrossAppAuthorizeRequest = z.infer<typeof crossAppAuthorizeRequestSchema>
export const crossAppAuthorizeResponseSchema = z.object({
  code: z.string(),
  expires_at: timestamp,
  requester_app: z.object({ id: z.string(), name: z.string(), logo_url: z.string().nullable() }),
})
export type CrossAppAuthorizeResponse = z.infer<typeof crossAppAuthorizeResponseSchema>

/** POST /api/v1/cross-app/requester: who is asking (P's consent screen reads the requester's name). */
export const crossAppRequesterRequestSchema = z.object({
  requester_app_id: appIdSchema,
  origin: webOriginSchema,
})
export const crossAppRequesterResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  logo_url: z.string().nullable(),
})
export type CrossAppRequester = z.infer<typeof crossAppRequesterResponseSchema>

/** POST /api/v1/cross-app/authenticate and /link: the requester trades the code. */
export const crossAppAuthenticateRequestSchema = z.object({
  provider_app_id: appIdSchema,
  code: z.string().min(20).max(200),
  code_verifier: pkceVerifierSchema,
  mode: authModeSchema.default('login-or-sign-up'),
})
export type CrossAppAuthenticateRequest = z.input<typeof crossAppAuthenticateRequestSchema>
export const crossAppLinkRequestSchema = crossAppAuthenticateRequestSchema.omit({ mode: true })
export type CrossAppLinkRequest = z.input<typeof crossAppLinkRequestSchema>

/** The transact token the requester keeps (opaque; stored hashed by the server). */
export const crossAppTransactGrantSchema = z.object({
  provider_app_id: z.string(),
  token: z.string(),
  read_only: z.boolean(),
  expires_at: timestamp,
})
export type CrossAppTransactGrant = z.infer<typeof crossAppTransactGrantSchema>

export const crossAppAuthenticateResponseSchema = authResponseSchema.extend({
  cross_app: crossAppTransactGrantSchema,
})
export type CrossAppAuthenticateResponse = z.infer<typeof crossAppAuthenticateResponseSchema>

/** POST /api/v1/cross-app/transact/verify (P's page, P's user token). */
export const crossAppTransactVerifyRequestSchema = z.object({
  token: z.string().min(20).max(200),
  origin: webOriginSchema,
})
export const crossAppTransactVerifyResponseSchema = z.object({
  requester_app: z.object({ id: z.string(), name: z.string(), logo_url: z.string().nullable() }),
  /** The provider user's embedded wallets the requester may ask to sign with. */
  addresses: z.array(z.string()),
})
export type CrossAppTransactVerifyResponse = z.infer<typeof crossAppTransactVerifyResponseSchema>

// The popup's messages and constants live with the browser's check of them.
export {
  CROSS_APP_CLOSED_POLL_MS,
  CROSS_APP_MESSAGE_TYPE,
  CROSS_APP_POPUP_SIZE,
  CROSS_APP_POPUP_TIMEOUT_MS,
  CROSS_APP_QUERY,
  type CrossAppMessage,
  type CrossAppRpcRequest,
  crossAppMessageSchema,
  crossAppRpcRequestSchema,
} from '../client-schemas.ts'
