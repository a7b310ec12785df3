import { appApiErrorMessages } from './error-catalogue-app-api.ts'
import { crossAppErrorMessages } from './error-catalogue-cross-app.ts'
import { delegationErrorMessages } from './error-catalogue-delegation.ts'
import { farcasterSignerErrorMessages } from './error-catalogue-farcaster.ts'
import { fundingErrorMessages } from './error-catalogue-funding.ts'
import { operationsErrorMessages } from './error-catalogue-operations.ts'
import { transactionErrorMessages } from './error-catalogue-transactions.ts'
import { walletRulesErrorMessages } from './error-catalogue-wallet-rules.ts'
import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/*
 * The user-facing catalogue of spec 01 §8 (and spec 02, 03), keyed by the
 * stable codes of `errors.ts`, which re-exports everything here. Screens never
 * invent wording: they look a code up. Each entry says what happened and,
 * where the user can act, what to do; the spec's generic wording is kept
 * only where the spec dictates it (errors.test.ts holds every code to that).
 */

export type { UserMessage }

/** The spec's user-facing wording (spec 01 §5, §8), keyed by error code. */
export const errorMessages: Record<ErrorCode, UserMessage> = {
  // Spec 01 §8 "Invalid data".
  INVALID_PAYLOAD: { title: 'Something went wrong. Try again.', retryable: true },
  // Not in the spec: a route this server does not have (the app and server versions differ).
  NOT_FOUND: {
    title: 'This server does not support this request',
    detail: 'The app and its Latchkey server may be on different versions.',
  },
  // Not in the spec: the app's own setup is wrong, so the user cannot fix it; the detail tells its developer.
  MISSING_APP_ID: {
    title: 'Login is not set up for this app',
    detail: 'The request carried no app id.',
  },
  APP_NOT_FOUND: {
    title: 'Login is not set up for this app',
    detail: 'The server does not know this app id.',
  },
  ORIGIN_NOT_ALLOWED: {
    title: 'Login is not allowed on this website',
    detail: "This site is not one of the app's allowed origins.",
  },
  LOGIN_METHOD_NOT_ALLOWED: { title: 'Not allowed', detail: 'Try another method' },
  INVALID_CODE: { title: 'Invalid or expired verification code' },
  TOO_MANY_ATTEMPTS: { title: 'Too many attempts.' },
  TOO_MANY_REQUESTS: { title: 'Too many requests. Please wait before trying again.' },
  // The answer carries `retry_after`: the modal shows it as the resend link's countdown.
  RESEND_COOLDOWN: { title: 'Too many requests. Please wait before trying again.' },
  PLUS_EMAIL_NOT_ALLOWED: { title: "Please enter a valid email address without a '+'." },
  // Not in the spec: the mail server refused the code (docs/delivery.md).
  EMAIL_DELIVERY_FAILED: {
    title: 'Could not send the code',
    detail: 'The email could not be delivered. Check the address and try again.',
    retryable: true,
  },
  INVALID_PHONE_NUMBER: { title: 'Please enter a valid phone number.' },
  // Spec 01 §8 "Region".
  SMS_REGION_NOT_ALLOWED: { title: 'SMS authentication from this region is not available' },
  // Not in the spec: the SMS or WhatsApp provider refused the code.
  SMS_DELIVERY_FAILED: {
    title: 'Could not send the code',
    detail: 'The message could not be delivered. Check the number and try again.',
    retryable: true,
  },
  USER_DOES_NOT_EXIST: { title: 'Account not found', detail: 'Try logging in again' },
  ACCOUNT_ALREADY_LINKED: { title: 'This account has already been linked to another user.' },
  // Spec 01 §8 / spec 02 §8: "Cannot link more of a type: the server message" (each link
  // route names the type: 'Only one phone number can be linked to an account.'). Not
  // retryable: the same link is refused again.
  CANNOT_LINK_MORE_OF_TYPE: {
    title: 'Only one account of this type can be linked.',
    fromServer: true,
  },
  // Not in the spec: an unlink of an account the user no longer has (unlinked elsewhere).
  ACCOUNT_NOT_LINKED: {
    title: 'This account is not linked to you',
    detail: 'It may have been unlinked already.',
  },
  // Spec 02 §5 "Email update"; the phone wording follows it ('likewise a phone is required').
  NO_EMAIL_TO_UPDATE: { title: 'User is required to have an email address to update it.' },
  NO_PHONE_TO_UPDATE: { title: 'User is required to have a phone number to update it.' },
  // Not in the spec: every user keeps one login method; say how to remove this one.
  CANNOT_UNLINK_LAST_ACCOUNT: {
    title: "You can't remove your only login method",
    detail: 'Link another login method first.',
  },
  WALLET_ALREADY_EXISTS: { title: 'User already has an embedded wallet.' },
  WALLET_NOT_FOUND: { title: 'Embedded wallet not found' },
  WALLET_PROXY_UNAVAILABLE: { title: 'Failed to connect to wallet proxy' },
  WALLET_NOT_AUTHENTICATED: {
    title: 'User must be authenticated before creating a Latchkey wallet',
  },
  // Spec 03 §8 "Export and connect".
  EXPORT_NOT_AUTHENTICATED: { title: 'User must be authenticated before exporting their wallet' },
  // Not in the spec's words (§5 says only "unsupported"): what the app allows instead.
  USER_OWNED_RECOVERY_UNSUPPORTED: {
    title: "This app doesn't offer password or cloud backup",
    detail: 'Your wallet is recovered automatically when you log in on a new device.',
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
  // Spec 02 §4: closing the recovery flow without a change.
  SET_RECOVERY_EXITED: { title: 'User exited set recovery flow' },
  // Spec 03 §4 / §8 "Export and connect": the connect-wallet screen closed, or failed.
  EMBEDDED_WALLET_CONNECT_EXITED: { title: 'User exited before wallet could be connected' },
  EMBEDDED_WALLET_CONNECT_FAILED: {
    title: 'Something went wrong. We’re on it. Please try again later.',
  },
  // Spec 03 §8 / spec 02 §8: recovery and creation failures the enclave or server did not name.
  UNABLE_TO_RECOVER_WALLET: { title: 'Unable to recover wallet' },
  // Spec 03 §8 "Export and connect" ('Privy' is this project's name).
  RECOVER_NOT_AUTHENTICATED: {
    title: 'User must be authenticated and have a Latchkey wallet before it can be recovered',
  },
  USER_WALLET_CREATION_FAILED: { title: 'User wallet creation failed' },
  WALLET_DATA_MISSING: { title: 'Wallet data is missing' },
  // Spec 02 §8: the frame is gone ('Failed to connect to wallet proxy' is the init timeout).
  WALLET_PROXY_DISCONNECTED: { title: 'Cannot connect to wallet proxy' },
  // Spec 02 §8; the cloud screens still read '{Recovery|Back up} with {provider} unsuccessful'.
  RECOVERY_OAUTH_FAILED: { title: 'Recovery OAuth failed' },
  // Not in the spec: useDeleteAccount's screen closed before the account was deleted.
  ACCOUNT_DELETION_EXITED: { title: 'User exited before deleting the account' },
  // Spec 02 "Recovery by cloud drive".
  CLOUD_BACKUP_FAILED: { title: 'Back up with {provider} unsuccessful', retryable: true },
  CLOUD_RECOVERY_FAILED: {
    title: 'Recovery with {provider} unsuccessful',
    detail:
      'Please verify that you are selecting the {provider} account associated with your backup.',
    retryable: true,
  },
  // Not in the spec: the app has no credentials for this drive (docs/cloud-recovery.md).
  CLOUD_RECOVERY_NOT_CONFIGURED: {
    title: 'Cloud backup is not set up for this app',
    detail: 'Choose another recovery method.',
  },
  // Spec 01 §8: the state returned by a provider is not the one this browser sent.
  OAUTH_STATE_MISMATCH: { title: 'Unexpected auth flow. This may be a phishing attempt.' },
  // Spec 01 §8: user denied, or the provider refused the code (unknown-auth-error).
  OAUTH_INVALID_CODE: { title: 'Invalid code during OAuth flow.', retryable: true },
  // Spec 02 §8 "OAuth": "retryable generic text for unexpected provider errors".
  OAUTH_PROVIDER_ERROR: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8: the provider's `error=access_denied` (docs/login-oauth.md "Failures").
  OAUTH_USER_DENIED: { title: 'User denied confirmation during OAuth flow', retryable: true },
  // Spec 01 §8 "user denied: retry and check the box" (retryable); the wording is ours.
  OAUTH_SCOPE_DENIED: {
    title: 'A permission was not granted',
    detail: 'Retry and check the box next to each permission.',
    retryable: true,
  },
  // Spec 01 §8, in the spec's own words.
  OAUTH_ACCOUNT_SUSPENDED: { title: 'account suspended, try another method' },
  // Not in the spec: the return of a login started in another tab, or more than 15 minutes ago.
  OAUTH_LOGIN_EXPIRED: {
    title: 'This login has expired',
    detail: 'Start it again: a social login must finish in the tab it began in, within 15 minutes.',
    retryable: true,
  },
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
  // Not in the spec: the Farcaster relay refused the channel or could not be reached.
  FARCASTER_RELAY_ERROR: {
    title: 'Could not reach Farcaster',
    detail: 'Try again in a moment.',
    retryable: true,
  },
  // Spec 01 §8 "Passkey": the browser refused or timed out, has no WebAuthn, or failed otherwise.
  PASSKEY_FAILED: { title: 'Passkey request timed out or rejected by user.', retryable: true },
  WEBAUTHN_UNSUPPORTED: { title: 'WebAuthn is not supported in this browser' },
  PASSKEY_UNKNOWN_ERROR: { title: 'Unknown error occurred.', retryable: true },
  // Spec 01 §8 "invalid credentials": the server refused the attestation or assertion.
  PASSKEY_VERIFICATION_FAILED: { title: 'Something went wrong. Try again.', retryable: true },
  // Spec 01 §8 / spec 02 §8: the server's own wording for the passkey link limit and the MFA rule.
  PASSKEY_LINK_LIMIT: { title: 'Cannot link more passkeys to account.' },
  // Not in the spec, which reads the browser's refusal as 'timed out or rejected': the
  // authenticator already holds one of the account's passkeys (WebAuthn L2 §6.3.2 step 3),
  // or the server any user's. Retry lets the user pick another device in the prompt.
  PASSKEY_ALREADY_LINKED: {
    title: 'This passkey is already linked',
    detail: 'Use another device or security key.',
    retryable: true,
  },
  PASSKEY_ENROLLED_IN_MFA: { title: 'Cannot unlink a passkey enrolled in MFA' },
  // Spec 02 §2 "Multi-factor verification": the chooser's title; the client opens it on this code.
  MFA_REQUIRED: {
    title: 'Verify your identity',
    detail: 'Enter a code from your verification method to continue.',
  },
  // Spec 02 §8 "missing or invalid MFA" (not blocking: the user types another code).
  MFA_INVALID_CODE: { title: 'The code you entered is not valid', retryable: true },
  // Spec 02 §8 "maximum attempts" (blocking). The server's lock lasts until `retry_after`.
  MFA_MAX_ATTEMPTS: {
    title:
      'You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.',
  },
  // Not in the spec: the app's `mfa_methods` setting leaves this method out.
  MFA_METHOD_NOT_ALLOWED: {
    title: 'This verification method is not available',
    detail: 'This app does not offer it. Choose another method.',
  },
  // Not in the spec: a verification or removal of a method the user has not set up.
  MFA_NOT_ENROLLED: {
    title: 'This verification method is not set up',
    detail: 'Choose another method.',
  },
  MFA_ALREADY_ENROLLED: {
    title: 'This verification method is already set up',
    detail: 'Remove it first to set it up again.',
  },
  MFA_ENROLLMENT_EXPIRED: {
    title: 'This setup has expired',
    detail: 'Start again to get a new setup key.',
  },
  // Spec 02 §8 "MFA timeout" (blocking): no code within MFA_CODE_WAIT_MS.
  MFA_TIMEOUT: {
    title: 'You have exceeded the time limit for code entry. Please try again in 30 seconds.',
  },
  // Spec 02 §8 "cancelled".
  MFA_CANCELED: { title: 'Verification canceled' },
  // Spec 02 §6 / spec 03 §6: SMS MFA is disabled when the user's phone is a login method.
  MFA_SMS_PHONE_IS_LOGIN: {
    title: 'This phone number is a login method',
    detail: 'A code sent to it cannot also be a second factor. Use another number or method.',
  },
  // Not in the spec: a passkey to enable for MFA that is not linked to this account.
  MFA_PASSKEY_NOT_LINKED: {
    title: 'This passkey is not linked to your account',
    detail: 'Add it as a passkey first, then enable it for verification.',
  },
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
  // Not in the spec: the offer was used, or is older than its nonce's lifetime.
  TRANSFER_EXPIRED: {
    title: 'This transfer offer has expired',
    detail: 'Link the account again to get a new offer.',
  },
  UNAUTHORIZED: { title: 'Unable to authorize user' },
  INVALID_REFRESH_TOKEN: {
    title: 'Unable to refresh tokens - token is missing or no longer valid',
  },
  // Not in the spec: the client's own failures (spec 01 §7: 20 s timeout, 3 retries).
  NETWORK_ERROR: {
    title: 'Could not reach the server',
    detail: 'Check your connection and try again.',
    retryable: true,
  },
  TIMEOUT: {
    title: 'The server took too long to answer',
    detail: 'Check your connection and try again.',
    retryable: true,
  },
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
  // Spec 02 §5: "too many characters gives 'Passcode must be exactly 6 numbers'".
  CODE_TOO_LONG: { title: 'Passcode must be exactly 6 numbers' },
  ALREADY_LOGGED_IN: { title: 'User is already logged in' },
  NOT_AUTHENTICATED: { title: 'Unable to authorize user' },
  // Spec 01 §8 "Others": a failure the server does not name.
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
  // Spec 01 §8 "Phantom multichain not enabled": the screen offers Try again and Cancel.
  WALLET_MULTICHAIN_DISABLED: {
    title: 'Could not connect with wallet',
    detail: "Turn on Ethereum in your wallet's settings, then try again.",
    retryable: true,
  },
  // Spec 01 §5: the supported chain list must be non-empty and hold the default chain.
  INVALID_CHAINS: { title: 'The chains list must be non-empty and include the default chain' },
  // Spec 03 §8 "Transactions": error-catalogue-transactions.ts.
  ...transactionErrorMessages,
  ...operationsErrorMessages,
  ...appApiErrorMessages,
  // Spec 03 §8 "Funding": error-catalogue-funding.ts.
  ...fundingErrorMessages,
  ...farcasterSignerErrorMessages,
  ...crossAppErrorMessages,
  ...delegationErrorMessages,
  ...walletRulesErrorMessages,
}
