/**
 * Stable error codes that cross a boundary (HTTP, postMessage), their HTTP
 * statuses, and (from `error-catalogue.ts`) the user-facing catalogue of spec
 * 01 §8 keyed by them. Screens never invent wording: they look a code up here.
 */
import type { ErrorCode } from './error-codes.ts'

export * from './error-basics.ts'
// The user-facing catalogue keyed by these codes (errorMessages, formatUserMessage…).
export * from './error-catalogue.ts'
export { ErrorCode } from './error-codes.ts'
export * from './error-format.ts'

/** HTTP status the server answers with for each server-side code. */
export const errorStatus: Partial<Record<ErrorCode, number>> = {
  INVALID_PAYLOAD: 400,
  NOT_FOUND: 404,
  MISSING_APP_ID: 400,
  APP_NOT_FOUND: 404,
  ORIGIN_NOT_ALLOWED: 403,
  LOGIN_METHOD_NOT_ALLOWED: 403,
  INVALID_CODE: 422,
  TOO_MANY_ATTEMPTS: 429,
  TOO_MANY_REQUESTS: 429,
  RESEND_COOLDOWN: 429,
  PLUS_EMAIL_NOT_ALLOWED: 400,
  // 424 on purpose: the client retries 5xx, and a retried send would email twice.
  EMAIL_DELIVERY_FAILED: 424,
  INVALID_PHONE_NUMBER: 400,
  SMS_REGION_NOT_ALLOWED: 403,
  // 424 like email: a retried send would text twice.
  SMS_DELIVERY_FAILED: 424,
  USER_DOES_NOT_EXIST: 404,
  // 400, not 409: the client retries 409 (spec 01 §7).
  ACCOUNT_ALREADY_LINKED: 400,
  CANNOT_LINK_MORE_OF_TYPE: 400,
  ACCOUNT_NOT_LINKED: 404,
  CANNOT_UNLINK_LAST_ACCOUNT: 400,
  NO_EMAIL_TO_UPDATE: 400,
  NO_PHONE_TO_UPDATE: 400,
  WALLET_ALREADY_EXISTS: 400,
  WALLET_NOT_FOUND: 404,
  USER_OWNED_RECOVERY_UNSUPPORTED: 400,
  INVALID_RECOVERY_PASSWORD: 400,
  PASSWORD_TOO_SHORT: 400,
  // 424: the provider (Google, CloudKit) refused; not retried by the client.
  CLOUD_BACKUP_FAILED: 424,
  CLOUD_RECOVERY_FAILED: 424,
  CLOUD_RECOVERY_NOT_CONFIGURED: 400,
  OAUTH_STATE_MISMATCH: 400,
  OAUTH_INVALID_CODE: 400,
  OAUTH_PROVIDER_ERROR: 424,
  OAUTH_SCOPE_DENIED: 400,
  OAUTH_ACCOUNT_SUSPENDED: 403,
  // 400, not 401: a 401 means "your session is gone" to the client.
  AUTHENTICATION_FAILED: 400,
  TELEGRAM_NOT_ALLOWED: 403,
  TELEGRAM_RATE_LIMITED: 429,
  WALLET_LOGIN_FAILED: 400,
  WALLET_ADDRESS_TAKEN: 400,
  WALLET_LINK_LIMIT: 400,
  UNSUPPORTED_CHAIN: 400,
  FARCASTER_TIMEOUT: 400,
  // 424: the Farcaster relay refused or could not be reached; not retried by the client.
  FARCASTER_RELAY_ERROR: 424,
  FARCASTER_SIGNER_CONNECT_FAILED: 400,
  FARCASTER_SIGNER_REJECTED: 400,
  // 404 like ONRAMP_NOT_CONFIGURED: the app's setup, asking again will not help.
  FARCASTER_SIGNER_NOT_CONFIGURED: 404,
  FARCASTER_SIGNER_NOT_FOUND: 404,
  // Cross-app (docs/cross-app.md).
  CROSS_APP_CONNECT_FAILED: 400,
  CROSS_APP_INVALID_APP: 404,
  CROSS_APP_INVALID_TOKEN: 401,
  CROSS_APP_READ_ONLY: 403,
  // Delegated actions (docs/delegated-actions.md); 403s are refusals asking again will not change.
  DELEGATION_ADDRESS_NOT_OWNED: 403,
  DELEGATION_SHARE_INVALID: 400,
  WALLET_NOT_DELEGATED: 403,
  DELEGATION_POLICY_VIOLATION: 403,
  // 429 like other caps: the window moves on.
  DELEGATION_DAILY_CAP_REACHED: 429,
  // Wallet rules (error-catalogue-wallet-rules.ts).
  EMBEDDED_SOLANA_WALLET_LOGIN: 400,
  EMBEDDED_SOLANA_WALLET_UNLINK: 400,
  PASSKEY_VERIFICATION_FAILED: 400,
  PASSKEY_LINK_LIMIT: 400,
  PASSKEY_ALREADY_LINKED: 400,
  PASSKEY_ENROLLED_IN_MFA: 400,
  MFA_REQUIRED: 403,
  MFA_INVALID_CODE: 422,
  MFA_MAX_ATTEMPTS: 429,
  MFA_METHOD_NOT_ALLOWED: 403,
  MFA_NOT_ENROLLED: 400,
  // 400, not 409: the client retries 409.
  MFA_ALREADY_ENROLLED: 400,
  MFA_ENROLLMENT_EXPIRED: 400,
  MFA_TIMEOUT: 408,
  MFA_CANCELED: 400,
  MFA_SMS_PHONE_IS_LOGIN: 400,
  MFA_PASSKEY_NOT_LINKED: 400,
  CAPTCHA_INVALID: 400,
  CAPTCHA_FAILED: 403,
  // 424: the verifier (Cloudflare) could not be reached; blocks, and is not retried by the client.
  CAPTCHA_TIMEOUT: 424,
  ALLOWLIST_REJECTED: 403,
  USER_LIMIT_REACHED: 403,
  REGION_NOT_SUPPORTED: 403,
  // 400, not 409: the client retries 409.
  ACCOUNT_TRANSFER_REQUIRED: 400,
  TRANSFER_INPUTS_MISSING: 400,
  TRANSFER_NOT_ALLOWED: 400,
  TRANSFER_EXPIRED: 400,
  // 404: no price here (prices off, or a symbol outside the table); asking again will not help.
  PRICES_NOT_CONFIGURED: 404,
  UNKNOWN_TOKEN: 404,
  // 424: the price source failed; not retried by the client (the server remembers it for 60 s).
  PRICE_UNAVAILABLE: 424,
  FUNDING_NOT_ENABLED: 403,
  FUNDING_METHOD_NOT_ENABLED: 403,
  FUNDING_CHAIN_NOT_CONFIGURED: 400,
  FUNDING_USDC_SOLANA_TESTNET: 400,
  FUNDING_INVALID_DATA: 400,
  FUNDING_CONFIG_NOT_FOUND: 404,
  FUNDING_UNSUPPORTED_CHAIN: 400,
  ONRAMP_NOT_CONFIGURED: 404,
  ONRAMP_PROVIDER_ERROR: 502,
  // 424 like PRICE_UNAVAILABLE: the server's Solana RPC failed reading a mint (spl_token_info).
  TOKEN_DETAILS_FAILED: 424,
  UNAUTHORIZED: 401,
  APP_AUTH_REQUIRED: 401,
  INVALID_APP_SECRET: 401,
  // 403: whatever the secret, a browser may not use it.
  APP_SECRET_FROM_BROWSER: 403,
  ENCLAVE_PROOF_INVALID: 401,
  INVALID_REFRESH_TOKEN: 401,
  INTERNAL_ERROR: 500,
  // 503: take this node out of rotation; only `GET /ready` answers it (docs/operations.md).
  NOT_READY: 503,
  // 503 with Retry-After: a store this node needs is away; the client retries (docs/operations.md "Failures").
  SERVICE_UNAVAILABLE: 503,
}

/**
 * The body of every error response: `{ code, message }`, plus optional
 * details. A 429 whose limit lifts at a known time also carries
 * `retry_after`: whole seconds until the same request is accepted again (as
 * the `Retry-After` header, RFC 9110 §10.2.3).
 */
export interface ErrorBody {
  code: ErrorCode
  message: string
  details?: unknown
  retry_after?: number
}
