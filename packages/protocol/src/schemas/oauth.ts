import { z } from 'zod'
import { codeChallengeSchema, codeVerifierSchema, stateCodeSchema } from './cloud-recovery.ts'
import { authModeSchema } from './common.ts'
import { oauthProviderSchema } from './oauth-account.ts'
import { authResponseSchema } from './session.ts'

/*
 * OAuth login (spec 01 §7, docs/login-oauth.md): the browser makes the PKCE
 * verifier and the state code, asks the server for the provider's URL
 * (`init`), navigates there, and on return hands code, state and verifier
 * to `authenticate` (or `link`). The server exchanges the code with the
 * app's client secret and keys the user by (provider, subject).
 */

const redirectTo = z.url({ protocol: /^https?$/ }).max(2048)
/** The code the provider returned: opaque, bounded. */
const authorizationCode = z.string().min(1).max(4096)

/** POST /api/v1/oauth/init — the provider's authorization URL (PKCE S256 + state). */
export const oauthInitRequestSchema = z.object({
  provider: oauthProviderSchema,
  /** The page the provider returns to; its origin must be one of the app's. */
  redirect_to: redirectTo,
  code_challenge: codeChallengeSchema,
  state_code: stateCodeSchema,
  /** `link` binds the state to the signed-in user (bearer token required). Default `login`. */
  intent: z.enum(['login', 'link']).optional(),
  /** Captcha token (spec 01 §7); checked where a captcha is enabled. */
  token: z.string().max(4096).optional(),
})
export type OAuthInitRequest = z.input<typeof oauthInitRequestSchema>

export const oauthInitResponseSchema = z.object({ url: z.url() })
export type OAuthInitResponse = z.infer<typeof oauthInitResponseSchema>

/** POST /api/v1/oauth/link — what the provider's return gave the browser. */
export const oauthLinkRequestSchema = z.object({
  provider: oauthProviderSchema,
  authorization_code: authorizationCode,
  state_code: stateCodeSchema,
  code_verifier: codeVerifierSchema,
})
export type OAuthLinkRequest = z.input<typeof oauthLinkRequestSchema>

/** POST /api/v1/oauth/authenticate — the link payload plus the login mode. */
export const oauthAuthenticateRequestSchema = oauthLinkRequestSchema.extend({
  mode: authModeSchema.default('login-or-sign-up'),
})
export type OAuthAuthenticateRequest = z.input<typeof oauthAuthenticateRequestSchema>

/** POST /api/v1/oauth/unlink */
export const oauthUnlinkRequestSchema = z.object({
  provider: oauthProviderSchema,
  subject: z.string().min(1).max(255),
})
export type OAuthUnlinkRequest = z.input<typeof oauthUnlinkRequestSchema>

/** The provider's tokens, returned only when the app's `oauth.return_provider_tokens` is on. */
export const oauthTokensSchema = z.object({
  provider: oauthProviderSchema,
  access_token: z.string(),
  access_token_expires_in_seconds: z.number().int().nullable(),
  refresh_token: z.string().nullable(),
  refresh_token_expires_in_seconds: z.number().int().nullable(),
  scopes: z.array(z.string()),
})
export type OAuthTokens = z.infer<typeof oauthTokensSchema>

/** An auth response of an OAuth login (spec 01 §3 "Auth response"). */
export const oauthAuthResponseSchema = authResponseSchema.extend({
  oauth_tokens: oauthTokensSchema.optional(),
})
export type OAuthAuthResponse = z.infer<typeof oauthAuthResponseSchema>
