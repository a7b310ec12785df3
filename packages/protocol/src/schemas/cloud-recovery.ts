import { z } from 'zod'
import { CLOUD_RECOVERY_PROVIDER_NAMES } from '../constants.ts'

/**
 * Cloud-drive recovery (spec 02 "Recovery by cloud drive", ARCHITECTURE
 * "Embedded wallet keys"): the recovery key is a random 32-byte key kept in
 * the user's own Google Drive app-data folder or iCloud private database; the
 * server keeps only the recovery share sealed under it and the key's id.
 *
 * The OAuth consent is a full-page redirect started by the host SDK: it makes
 * the PKCE verifier and the state code, asks the server for the provider's
 * URL (`init` / `init_icloud`), and on return hands the authorization code,
 * state and verifier to the enclave, which exchanges them at `authenticate`
 * itself: the provider access token lives only in the enclave.
 */

export const cloudRecoveryProviderSchema = z.enum(['google-drive', 'icloud'])
export type CloudRecoveryProvider = z.infer<typeof cloudRecoveryProviderSchema>

/** How the spec's messages name each provider (also in constants, for zod-free bundles). */
export const cloudRecoveryProviderNames: Record<CloudRecoveryProvider, string> =
  CLOUD_RECOVERY_PROVIDER_NAMES

/** A state code: 128+ random bits, base64url. */
/** A state code: base64url, optionally prefixed (an OAuth login's `{provider}.`, docs/login-oauth.md). */
export const stateCodeSchema = z.string().regex(/^[A-Za-z0-9_.-]{22,128}$/, 'Expected a state code')
/** RFC 7636 code verifier (43–128 unreserved characters). */
export const codeVerifierSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'Expected a PKCE code verifier')
/** RFC 7636 S256 challenge: base64url(SHA-256(verifier)), 43 characters. */
export const codeChallengeSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'Expected an S256 code challenge')

const redirectTo = z.url({ protocol: /^https?$/ }).max(2048)

/** POST /api/v1/recovery/oauth/init — Google Drive consent URL (PKCE S256 + state). */
export const recoveryOAuthInitRequestSchema = z.object({
  provider: z.literal('google-drive'),
  /** The page the provider sends the user back to; its origin must be one of the app's. */
  redirect_to: redirectTo,
  code_challenge: codeChallengeSchema,
  state_code: stateCodeSchema,
})
export type RecoveryOAuthInitRequest = z.input<typeof recoveryOAuthInitRequestSchema>

/** POST /api/v1/recovery/oauth/init_icloud — the CloudKit sign-in URL. */
export const recoveryOAuthInitIcloudRequestSchema = z.object({
  client_type: z.literal('web'),
  redirect_to: redirectTo,
  state_code: stateCodeSchema,
})
export type RecoveryOAuthInitIcloudRequest = z.input<typeof recoveryOAuthInitIcloudRequestSchema>

export const recoveryOAuthInitResponseSchema = z.object({ url: z.url() })
export type RecoveryOAuthInitResponse = z.infer<typeof recoveryOAuthInitResponseSchema>

/**
 * What the provider's return gave the host, handed to the enclave: the
 * authorization code (for iCloud, the `ckWebAuthToken`), the state code of
 * the init call, and (Google Drive) the PKCE verifier.
 */
export const cloudOAuthResultSchema = z.object({
  provider: cloudRecoveryProviderSchema,
  authorization_code: z.string().min(1).max(4096),
  state_code: stateCodeSchema,
  code_verifier: codeVerifierSchema.optional(),
})
export type CloudOAuthResult = z.infer<typeof cloudOAuthResultSchema>

/** POST /api/v1/recovery/oauth/authenticate — single use per state code, same user as init. */
export const recoveryOAuthAuthenticateRequestSchema = cloudOAuthResultSchema
export type RecoveryOAuthAuthenticateRequest = z.input<
  typeof recoveryOAuthAuthenticateRequestSchema
>

/** The provider access and where to call with it (the enclave's CSP allows exactly these origins). */
export const recoveryOAuthAuthenticateResponseSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('google-drive'),
    access_token: z.string().min(1).max(4096),
    /** Seconds, as Google reports it. */
    expires_in: z.number().int().positive().optional(),
    /** Google APIs base (`https://www.googleapis.com`): Drive at /drive/v3, uploads at /upload/drive/v3. */
    api_base_url: z.url(),
  }),
  z.object({
    provider: z.literal('icloud'),
    /** The `ckWebAuthToken` from the sign-in redirect. */
    access_token: z.string().min(1).max(4096),
    /** CloudKit Web Services base (`https://api.apple-cloudkit.com`). */
    api_base_url: z.url(),
    container_id: z.string().min(1).max(200),
    environment: z.enum(['development', 'production']),
    /** The app's CloudKit API token (not a secret: CloudKit JS ships it to browsers). */
    api_token: z.string().min(1).max(200),
  }),
])
export type RecoveryOAuthAuthenticateResponse = z.infer<
  typeof recoveryOAuthAuthenticateResponseSchema
>

/** 16 random bytes, base64url: names the cloud file / record holding one recovery key. */
export const recoveryKeyIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Expected a key id')
