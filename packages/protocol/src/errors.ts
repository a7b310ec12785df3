/**
 * Stable error codes that cross a boundary (HTTP, postMessage) and the
 * user-facing catalogue of spec 01 §8 keyed by them. Screens never invent
 * wording: they look a code up here.
 */
export const ErrorCode = {
  // Request shape and routing
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  NOT_FOUND: 'NOT_FOUND',
  MISSING_APP_ID: 'MISSING_APP_ID',
  APP_NOT_FOUND: 'APP_NOT_FOUND',
  ORIGIN_NOT_ALLOWED: 'ORIGIN_NOT_ALLOWED',
  LOGIN_METHOD_NOT_ALLOWED: 'LOGIN_METHOD_NOT_ALLOWED',
  // Codes
  INVALID_CODE: 'INVALID_CODE',
  TOO_MANY_ATTEMPTS: 'TOO_MANY_ATTEMPTS',
  TOO_MANY_REQUESTS: 'TOO_MANY_REQUESTS',
  RESEND_COOLDOWN: 'RESEND_COOLDOWN',
  PLUS_EMAIL_NOT_ALLOWED: 'PLUS_EMAIL_NOT_ALLOWED',
  EMAIL_DELIVERY_FAILED: 'EMAIL_DELIVERY_FAILED',
  // SMS / WhatsApp
  INVALID_PHONE_NUMBER: 'INVALID_PHONE_NUMBER',
  SMS_REGION_NOT_ALLOWED: 'SMS_REGION_NOT_ALLOWED',
  SMS_DELIVERY_FAILED: 'SMS_DELIVERY_FAILED',
  // Accounts
  USER_DOES_NOT_EXIST: 'USER_DOES_NOT_EXIST',
  ACCOUNT_ALREADY_LINKED: 'ACCOUNT_ALREADY_LINKED',
  CANNOT_LINK_MORE_OF_TYPE: 'CANNOT_LINK_MORE_OF_TYPE',
  ACCOUNT_NOT_LINKED: 'ACCOUNT_NOT_LINKED',
  CANNOT_UNLINK_LAST_ACCOUNT: 'CANNOT_UNLINK_LAST_ACCOUNT',
  // Embedded wallets
  WALLET_ALREADY_EXISTS: 'WALLET_ALREADY_EXISTS',
  WALLET_NOT_FOUND: 'WALLET_NOT_FOUND',
  WALLET_PROXY_UNAVAILABLE: 'WALLET_PROXY_UNAVAILABLE',
  WALLET_NOT_AUTHENTICATED: 'WALLET_NOT_AUTHENTICATED',
  INVALID_RECOVERY_PASSWORD: 'INVALID_RECOVERY_PASSWORD',
  EMPTY_MESSAGE: 'EMPTY_MESSAGE',
  PASSWORD_TOO_SHORT: 'PASSWORD_TOO_SHORT',
  WALLET_CREATION_FAILED: 'WALLET_CREATION_FAILED',
  WALLET_IMPORT_FAILED: 'WALLET_IMPORT_FAILED',
  RECOVERY_REQUIRED: 'RECOVERY_REQUIRED',
  UNSUPPORTED_METHOD: 'UNSUPPORTED_METHOD',
  WALLET_PROXY_INSECURE: 'WALLET_PROXY_INSECURE',
  /** A key route without a valid proof from the session's enclave key (docs/security.md). */
  ENCLAVE_PROOF_INVALID: 'ENCLAVE_PROOF_INVALID',
  SIGN_MESSAGE_FAILED: 'SIGN_MESSAGE_FAILED',
  RECOVERY_FAILED: 'RECOVERY_FAILED',
  RECOVERY_EXITED: 'RECOVERY_EXITED',
  SET_PASSWORD_EXITED: 'SET_PASSWORD_EXITED',
  // Cloud-drive recovery (messages hold a {provider} placeholder: see formatUserMessage)
  CLOUD_BACKUP_FAILED: 'CLOUD_BACKUP_FAILED',
  CLOUD_RECOVERY_FAILED: 'CLOUD_RECOVERY_FAILED',
  CLOUD_RECOVERY_NOT_CONFIGURED: 'CLOUD_RECOVERY_NOT_CONFIGURED',
  OAUTH_STATE_MISMATCH: 'OAUTH_STATE_MISMATCH',
  // OAuth login
  OAUTH_INVALID_CODE: 'OAUTH_INVALID_CODE',
  OAUTH_PROVIDER_ERROR: 'OAUTH_PROVIDER_ERROR',
  // Telegram, custom JWT
  AUTHENTICATION_FAILED: 'AUTHENTICATION_FAILED',
  TELEGRAM_NOT_ALLOWED: 'TELEGRAM_NOT_ALLOWED',
  TELEGRAM_RATE_LIMITED: 'TELEGRAM_RATE_LIMITED',
  // External wallets (SIWE / SIWS) and Farcaster
  WALLET_LOGIN_FAILED: 'WALLET_LOGIN_FAILED',
  WALLET_ADDRESS_TAKEN: 'WALLET_ADDRESS_TAKEN',
  WALLET_LINK_LIMIT: 'WALLET_LINK_LIMIT',
  UNSUPPORTED_CHAIN: 'UNSUPPORTED_CHAIN',
  FARCASTER_TIMEOUT: 'FARCASTER_TIMEOUT',
  FARCASTER_RELAY_ERROR: 'FARCASTER_RELAY_ERROR',
  // Passkeys (docs/passkeys.md)
  PASSKEY_FAILED: 'PASSKEY_FAILED',
  WEBAUTHN_UNSUPPORTED: 'WEBAUTHN_UNSUPPORTED',
  PASSKEY_UNKNOWN_ERROR: 'PASSKEY_UNKNOWN_ERROR',
  PASSKEY_VERIFICATION_FAILED: 'PASSKEY_VERIFICATION_FAILED',
  PASSKEY_LINK_LIMIT: 'PASSKEY_LINK_LIMIT',
  PASSKEY_ENROLLED_IN_MFA: 'PASSKEY_ENROLLED_IN_MFA',
  // Captcha (docs/captcha.md)
  CAPTCHA_INVALID: 'CAPTCHA_INVALID',
  CAPTCHA_FAILED: 'CAPTCHA_FAILED',
  CAPTCHA_TIMEOUT: 'CAPTCHA_TIMEOUT',
  CAPTCHA_INVALID_SITE_KEY: 'CAPTCHA_INVALID_SITE_KEY',
  // Gates around login (docs/access-control.md)
  ALLOWLIST_REJECTED: 'ALLOWLIST_REJECTED',
  USER_LIMIT_REACHED: 'USER_LIMIT_REACHED',
  REGION_NOT_SUPPORTED: 'REGION_NOT_SUPPORTED',
  TERMS_DECLINED: 'TERMS_DECLINED',
  ACCOUNT_TRANSFER_REQUIRED: 'ACCOUNT_TRANSFER_REQUIRED',
  TRANSFER_INPUTS_MISSING: 'TRANSFER_INPUTS_MISSING',
  TRANSFER_NOT_ALLOWED: 'TRANSFER_NOT_ALLOWED',
  TRANSFER_EXPIRED: 'TRANSFER_EXPIRED',
  // Sessions
  UNAUTHORIZED: 'UNAUTHORIZED',
  INVALID_REFRESH_TOKEN: 'INVALID_REFRESH_TOKEN',
  // Client side
  NETWORK_ERROR: 'NETWORK_ERROR',
  TIMEOUT: 'TIMEOUT',
  INVALID_APP_ID: 'INVALID_APP_ID',
  PROVIDER_ALREADY_MOUNTED: 'PROVIDER_ALREADY_MOUNTED',
  NO_LOGIN_METHODS: 'NO_LOGIN_METHODS',
  IN_APP_BROWSER: 'IN_APP_BROWSER',
  INVALID_EMAIL: 'INVALID_EMAIL',
  CODE_NOT_NUMERIC: 'CODE_NOT_NUMERIC',
  ALREADY_LOGGED_IN: 'ALREADY_LOGGED_IN',
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  // Client side: external wallets (spec 01 §8 "Wallet"); provider codes map here (core/external/errors.ts)
  WALLET_USER_REJECTED: 'WALLET_USER_REJECTED',
  WALLET_REQUEST_TIMEOUT: 'WALLET_REQUEST_TIMEOUT',
  WALLET_CONNECT_FAILED: 'WALLET_CONNECT_FAILED',
  WALLET_NO_ACCOUNTS: 'WALLET_NO_ACCOUNTS',
  WALLET_REQUEST_PENDING: 'WALLET_REQUEST_PENDING',
  WALLET_DISCONNECTED: 'WALLET_DISCONNECTED',
  WALLET_NOT_FOUND_EXTERNAL: 'WALLET_NOT_FOUND_EXTERNAL',
  INVALID_CHAINS: 'INVALID_CHAINS',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

/** What a user sees for an error: a title and, where the spec gives one, a detail line. */
export interface UserMessage {
  title: string
  detail?: string
  /** The spec marks these as worth a "Retry"/"Try again" button. */
  retryable?: boolean
}

/** The spec's user-facing wording (spec 01 §5, §8), keyed by error code. */
export const errorMessages: Record<ErrorCode, UserMessage> = {
  INVALID_PAYLOAD: { title: 'Something went wrong. Try again.', retryable: true },
  NOT_FOUND: { title: 'Something went wrong', detail: 'Try again later' },
  MISSING_APP_ID: { title: 'Something went wrong', detail: 'Try again later' },
  APP_NOT_FOUND: { title: 'Something went wrong', detail: 'Try again later' },
  ORIGIN_NOT_ALLOWED: { title: 'Something went wrong', detail: 'Try again later' },
  LOGIN_METHOD_NOT_ALLOWED: { title: 'Not allowed', detail: 'Try another method' },
  INVALID_CODE: { title: 'Invalid or expired verification code' },
  TOO_MANY_ATTEMPTS: { title: 'Too many attempts.' },
  TOO_MANY_REQUESTS: { title: 'Too many requests. Please wait before trying again.' },
  RESEND_COOLDOWN: { title: 'Too many requests. Please wait before trying again.' },
  PLUS_EMAIL_NOT_ALLOWED: { title: "Please enter a valid email address without a '+'." },
  EMAIL_DELIVERY_FAILED: {
    title: 'Something went wrong',
    detail: 'Try again later',
    retryable: true,
  },
  INVALID_PHONE_NUMBER: { title: 'Please enter a valid phone number.' },
  // Spec 01 §8 "Region".
  SMS_REGION_NOT_ALLOWED: { title: 'SMS authentication from this region is not available' },
  SMS_DELIVERY_FAILED: {
    title: 'Something went wrong',
    detail: 'Try again later',
    retryable: true,
  },
  USER_DOES_NOT_EXIST: { title: 'Account not found', detail: 'Try logging in again' },
  ACCOUNT_ALREADY_LINKED: { title: 'This account has already been linked to another user.' },
  CANNOT_LINK_MORE_OF_TYPE: { title: 'Something went wrong. Try again.', retryable: true },
  ACCOUNT_NOT_LINKED: { title: 'Something went wrong', detail: 'Try again later' },
  CANNOT_UNLINK_LAST_ACCOUNT: { title: 'Something went wrong', detail: 'Try again later' },
  WALLET_ALREADY_EXISTS: { title: 'User already has an embedded wallet.' },
  WALLET_NOT_FOUND: { title: 'Embedded wallet not found' },
  WALLET_PROXY_UNAVAILABLE: { title: 'Failed to connect to wallet proxy' },
  WALLET_NOT_AUTHENTICATED: {
    title: 'User must be authenticated before creating a Latchkey wallet',
  },
  INVALID_RECOVERY_PASSWORD: {
    title: 'Invalid recovery password, please try again.',
    retryable: true,
  },
  EMPTY_MESSAGE: { title: 'Message must be a non-empty string' },
  PASSWORD_TOO_SHORT: { title: 'Password must be at least 6 characters' },
  WALLET_CREATION_FAILED: { title: 'Failed to create wallet', retryable: true },
  WALLET_IMPORT_FAILED: { title: 'Failed to import wallet', retryable: true },
  RECOVERY_REQUIRED: {
    title: 'Enter your password',
    detail: 'Recover your account on this device to continue.',
  },
  UNSUPPORTED_METHOD: { title: 'The wallet does not support this request' },
  WALLET_PROXY_INSECURE: { title: 'Embedded wallets require HTTPS (except on localhost)' },
  ENCLAVE_PROOF_INVALID: { title: 'Unable to authorize user' },
  // Spec 03 §8: a signing failure the sign screen offers to retry.
  SIGN_MESSAGE_FAILED: {
    title: 'Failed to sign message',
    detail: 'An error has occurred, please try again.',
    retryable: true,
  },
  // Spec 02 §8: recovery failures other than a wrong password, and closing the
  // recovery prompt or the password wizard before it finished.
  RECOVERY_FAILED: { title: 'An error has occurred, please try again.', retryable: true },
  RECOVERY_EXITED: { title: 'User exited before their wallet could be recovered' },
  SET_PASSWORD_EXITED: { title: 'Exited before password was added to wallet' },
  // Spec 02 "Recovery by cloud drive".
  CLOUD_BACKUP_FAILED: { title: 'Back up with {provider} unsuccessful', retryable: true },
  CLOUD_RECOVERY_FAILED: {
    title: 'Recovery with {provider} unsuccessful',
    detail:
      'Please verify that you are selecting the {provider} account associated with your backup.',
    retryable: true,
  },
  CLOUD_RECOVERY_NOT_CONFIGURED: { title: 'Something went wrong', detail: 'Try again later' },
  // Spec 01 §8: the state returned by a provider is not the one this browser sent.
  OAUTH_STATE_MISMATCH: { title: 'Unexpected auth flow. This may be a phishing attempt.' },
  // Spec 01 §8: user denied, or the provider refused the code (unknown-auth-error).
  OAUTH_INVALID_CODE: { title: 'Invalid code during OAuth flow.', retryable: true },
  // The provider could not be reached or answered unexpectedly (not in the spec's catalogue).
  OAUTH_PROVIDER_ERROR: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8: a login proof (Telegram signature, custom JWT) that does not verify.
  AUTHENTICATION_FAILED: { title: 'Authentication failed', retryable: true },
  TELEGRAM_NOT_ALLOWED: { title: 'Login with Telegram not allowed.' },
  TELEGRAM_RATE_LIMITED: {
    title: 'Request limit reached for Telegram. Please wait a moment and try again.',
    retryable: true,
  },
  // Spec 01 §8 "Wallet": a sign-in proof the server refused (signature, nonce, domain, time window).
  WALLET_LOGIN_FAILED: { title: 'Could not log in with wallet', retryable: true },
  WALLET_ADDRESS_TAKEN: {
    title: 'User already exists for this address',
    detail: 'Try another address!',
  },
  WALLET_LINK_LIMIT: {
    title: 'Unable to link',
    detail: "You've reached the maximum number of linked wallets.",
  },
  // Spec 01 §8 "Configuration" (`{id}` filled by formatUserMessage); the server says the same of a SIWE chain.
  UNSUPPORTED_CHAIN: { title: 'Chain ID {id} is not supported by this app.' },
  // Spec 01 §8 "Farcaster".
  FARCASTER_TIMEOUT: { title: 'The request timed out. Try again.', retryable: true },
  FARCASTER_RELAY_ERROR: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8 "Passkey": the browser refused or timed out, has no WebAuthn, or failed otherwise.
  PASSKEY_FAILED: { title: 'Passkey request timed out or rejected by user.', retryable: true },
  WEBAUTHN_UNSUPPORTED: { title: 'WebAuthn is not supported in this browser' },
  PASSKEY_UNKNOWN_ERROR: { title: 'Unknown error occurred.', retryable: true },
  // Spec 01 §8 "invalid credentials": the server refused the attestation or assertion.
  PASSKEY_VERIFICATION_FAILED: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8 / spec 02 §8: the server's own wording for the passkey link limit and the MFA rule.
  PASSKEY_LINK_LIMIT: { title: 'Cannot link more passkeys to account.' },
  PASSKEY_ENROLLED_IN_MFA: { title: 'Cannot unlink a passkey enrolled in MFA' },
  // Spec 01 §8 "Captcha": a rejected token resets the captcha; a failed challenge; a timeout.
  CAPTCHA_INVALID: { title: 'Please try again.', retryable: true },
  CAPTCHA_FAILED: { title: 'You did not pass CAPTCHA. Please try again.', retryable: true },
  CAPTCHA_TIMEOUT: { title: 'Something went wrong! Please try again later.', retryable: true },
  // Spec 01 §5: the site key must have Turnstile's form.
  CAPTCHA_INVALID_SITE_KEY: { title: 'Captcha failed', detail: 'The captcha site key is invalid' },
  // Spec 02 "Allowlist and limit screens" (the app may replace the allowlist wording).
  ALLOWLIST_REJECTED: {
    title: "You don't have access to this app",
    detail: 'Have you been invited?',
  },
  USER_LIMIT_REACHED: { title: 'Unable to sign in' },
  // Spec 01 §8 "Region".
  REGION_NOT_SUPPORTED: { title: 'This region is not supported' },
  // Spec 02 "Terms consent": "No thanks" logs the user out.
  TERMS_DECLINED: { title: 'You must accept the terms to continue' },
  // Spec 02 "Account transfer": the answer carries the offer (AccountTransferOffer) in `details`.
  ACCOUNT_TRANSFER_REQUIRED: { title: 'This account has already been linked to another user.' },
  TRANSFER_INPUTS_MISSING: { title: 'missing account transfer inputs' },
  TRANSFER_NOT_ALLOWED: { title: 'This account cannot be transferred' },
  TRANSFER_EXPIRED: { title: 'Something went wrong', detail: 'Try again later' },
  UNAUTHORIZED: { title: 'Unable to authorize user' },
  INVALID_REFRESH_TOKEN: {
    title: 'Unable to refresh tokens - token is missing or no longer valid',
  },
  NETWORK_ERROR: { title: 'Something went wrong', detail: 'Try again later', retryable: true },
  TIMEOUT: { title: 'Something went wrong', detail: 'Try again later', retryable: true },
  INVALID_APP_ID: { title: 'App ID must be a 25-character string' },
  PROVIDER_ALREADY_MOUNTED: { title: 'Only one LatchkeyProvider may be mounted at a time' },
  NO_LOGIN_METHODS: { title: 'You must enable at least one login method' },
  // Spec 01 §8 "In-app browser": social login cannot finish in an app's embedded browser.
  IN_APP_BROWSER: {
    title: 'Could not log in with provider',
    detail:
      "It looks like you're using an in-app browser. To log in, please try again using an external browser.",
  },
  INVALID_EMAIL: { title: 'Please enter a valid email address.' },
  CODE_NOT_NUMERIC: { title: 'Code should be numeric' },
  ALREADY_LOGGED_IN: { title: 'User is already logged in' },
  NOT_AUTHENTICATED: { title: 'Unable to authorize user' },
  INTERNAL_ERROR: { title: 'Something went wrong', detail: 'Try again later' },
  WALLET_USER_REJECTED: { title: 'You rejected the request', retryable: true },
  WALLET_REQUEST_TIMEOUT: {
    title: 'Wallet request timed out',
    detail: 'Please try connecting again.',
    retryable: true,
  },
  // Spec 01 §4: after two retries only "Use a different wallet" remains.
  WALLET_CONNECT_FAILED: { title: 'Unable to connect wallet' },
  WALLET_NO_ACCOUNTS: { title: 'Unable to retrieve accounts', retryable: true },
  // EIP-1193 -32002: a connection or request is already waiting in the wallet, or it is locked.
  WALLET_REQUEST_PENDING: {
    title: 'Could not log in with wallet',
    detail: 'Open your wallet to finish the pending request, or unlock it.',
    retryable: true,
  },
  WALLET_DISCONNECTED: { title: 'Disconnected', retryable: true },
  WALLET_NOT_FOUND_EXTERNAL: { title: 'Could not connect with wallet', retryable: true },
  // Spec 01 §5: the supported chain list must be non-empty and hold the default chain.
  INVALID_CHAINS: { title: 'The chains list must be non-empty and include the default chain' },
}

/**
 * EIP-1193 errors a wallet screen raises itself (spec 03 §8): closing it
 * without signing is the user's rejection, code 4001.
 */
export const providerErrors = {
  userRejectedRequest: { code: 4001, message: 'The user rejected the request.' },
  unauthorized: {
    code: 4100,
    message: 'The requested method and/or account has not been authorized by the user.',
  },
  unsupportedMethod: { code: 4200, message: 'The Provider does not support the requested method.' },
  disconnected: { code: 4900, message: 'Disconnected' },
  chainDisconnected: { code: 4901, message: 'Unsupported chainId' },
  unrecognizedChain: { code: 4902, message: 'Unrecognized chain ID.' },
  resourceUnavailable: { code: -32002, message: 'Request already pending.' },
  internal: { code: -32603, message: 'Internal error.' },
} as const

/**
 * A message with its placeholders filled, e.g. `{provider}` → 'Google Drive'
 * for the cloud-recovery messages.
 */
export function formatUserMessage(
  code: ErrorCode,
  values: Record<string, string> = {},
): UserMessage {
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all)
  const message = errorMessages[code]
  return {
    ...message,
    title: fill(message.title),
    ...(message.detail ? { detail: fill(message.detail) } : {}),
  }
}

/** Fallback wording for code errors other than a wrong code (spec 01 §8). */
export const ISSUE_VERIFYING_CODE = 'Issue verifying code'

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
  WALLET_ALREADY_EXISTS: 400,
  WALLET_NOT_FOUND: 404,
  INVALID_RECOVERY_PASSWORD: 400,
  PASSWORD_TOO_SHORT: 400,
  // 424: the provider (Google, CloudKit) refused; not retried by the client.
  CLOUD_BACKUP_FAILED: 424,
  CLOUD_RECOVERY_FAILED: 424,
  CLOUD_RECOVERY_NOT_CONFIGURED: 400,
  OAUTH_STATE_MISMATCH: 400,
  OAUTH_INVALID_CODE: 400,
  OAUTH_PROVIDER_ERROR: 424,
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
  PASSKEY_VERIFICATION_FAILED: 400,
  PASSKEY_LINK_LIMIT: 400,
  PASSKEY_ENROLLED_IN_MFA: 400,
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
  UNAUTHORIZED: 401,
  ENCLAVE_PROOF_INVALID: 401,
  INVALID_REFRESH_TOKEN: 401,
  INTERNAL_ERROR: 500,
}

/** The body of every error response: `{ code, message }`, plus optional details. */
export interface ErrorBody {
  code: ErrorCode
  message: string
  details?: unknown
}
