/** Stable error codes that cross a boundary (HTTP, postMessage); `errors.ts` re-exports them. */
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
  /** An email update for a user who has no email address (spec 02 §5). */
  NO_EMAIL_TO_UPDATE: 'NO_EMAIL_TO_UPDATE',
  /** A phone update for a user who has no phone number (spec 02 §5). */
  NO_PHONE_TO_UPDATE: 'NO_PHONE_TO_UPDATE',
  // Embedded wallets
  WALLET_ALREADY_EXISTS: 'WALLET_ALREADY_EXISTS',
  WALLET_NOT_FOUND: 'WALLET_NOT_FOUND',
  WALLET_PROXY_UNAVAILABLE: 'WALLET_PROXY_UNAVAILABLE',
  WALLET_NOT_AUTHENTICATED: 'WALLET_NOT_AUTHENTICATED',
  EXPORT_NOT_AUTHENTICATED: 'EXPORT_NOT_AUTHENTICATED',
  /** A password or cloud backup asked of an app in server-wallet-only mode (spec 02 §5). */
  USER_OWNED_RECOVERY_UNSUPPORTED: 'USER_OWNED_RECOVERY_UNSUPPORTED',
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
  /** 'Update backup method' (or the post-login recovery choice) closed before a change. */
  SET_RECOVERY_EXITED: 'SET_RECOVERY_EXITED',
  /** The connect-wallet screen closed while the wallet was connecting (spec 03 §4). */
  EMBEDDED_WALLET_CONNECT_EXITED: 'EMBEDDED_WALLET_CONNECT_EXITED',
  /** The connect-wallet screen's failure (spec 03 §2); the action rejects with the cause's code. */
  EMBEDDED_WALLET_CONNECT_FAILED: 'EMBEDDED_WALLET_CONNECT_FAILED',
  /** `recoverWallet()` logged out, or for a user without an embedded wallet (spec 03 §8). */
  RECOVER_NOT_AUTHENTICATED: 'RECOVER_NOT_AUTHENTICATED',
  /** A wallet on a new device whose recovery failed, or whose method this client cannot run. */
  UNABLE_TO_RECOVER_WALLET: 'UNABLE_TO_RECOVER_WALLET',
  /** Creating the user's wallet failed for a reason the enclave or server did not name. */
  USER_WALLET_CREATION_FAILED: 'USER_WALLET_CREATION_FAILED',
  /** The account lists the wallet, but its key data (auth share, recovery material) is gone. */
  WALLET_DATA_MISSING: 'WALLET_DATA_MISSING',
  /** The enclave frame is gone (removed, or its bridge destroyed): no request can reach it. */
  WALLET_PROXY_DISCONNECTED: 'WALLET_PROXY_DISCONNECTED',
  /** The cloud-drive consent could not be exchanged for the provider's access. */
  RECOVERY_OAUTH_FAILED: 'RECOVERY_OAUTH_FAILED',
  ACCOUNT_DELETION_EXITED: 'ACCOUNT_DELETION_EXITED',
  // Cloud-drive recovery (messages hold a {provider} placeholder: see formatUserMessage)
  CLOUD_BACKUP_FAILED: 'CLOUD_BACKUP_FAILED',
  CLOUD_RECOVERY_FAILED: 'CLOUD_RECOVERY_FAILED',
  CLOUD_RECOVERY_NOT_CONFIGURED: 'CLOUD_RECOVERY_NOT_CONFIGURED',
  OAUTH_STATE_MISMATCH: 'OAUTH_STATE_MISMATCH',
  // OAuth login
  OAUTH_INVALID_CODE: 'OAUTH_INVALID_CODE',
  OAUTH_PROVIDER_ERROR: 'OAUTH_PROVIDER_ERROR',
  /** The user refused at the provider (its `error=access_denied` return). */
  OAUTH_USER_DENIED: 'OAUTH_USER_DENIED',
  /** The provider granted fewer scopes than asked (a permission box left unchecked). */
  OAUTH_SCOPE_DENIED: 'OAUTH_SCOPE_DENIED',
  /** The provider says the account is suspended. */
  OAUTH_ACCOUNT_SUSPENDED: 'OAUTH_ACCOUNT_SUSPENDED',
  /** A provider's return this tab has no pending login for (another tab, or past 15 minutes). */
  OAUTH_LOGIN_EXPIRED: 'OAUTH_LOGIN_EXPIRED',
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
  /** Farcaster signer (spec 03 §8): no key, or no Farcaster account to add a signer to. */
  FARCASTER_SIGNER_CONNECT_FAILED: 'FARCASTER_SIGNER_CONNECT_FAILED',
  /** The user revoked (declined) the signer request in their Farcaster app. */
  FARCASTER_SIGNER_REJECTED: 'FARCASTER_SIGNER_REJECTED',
  /** Server: the app has no requesting FID and custody key (docs/farcaster-signer.md). */
  FARCASTER_SIGNER_NOT_CONFIGURED: 'FARCASTER_SIGNER_NOT_CONFIGURED',
  /** Server: no signer request of this user for that key. */
  FARCASTER_SIGNER_NOT_FOUND: 'FARCASTER_SIGNER_NOT_FOUND',
  // Passkeys (docs/passkeys.md)
  PASSKEY_FAILED: 'PASSKEY_FAILED',
  WEBAUTHN_UNSUPPORTED: 'WEBAUTHN_UNSUPPORTED',
  PASSKEY_UNKNOWN_ERROR: 'PASSKEY_UNKNOWN_ERROR',
  PASSKEY_VERIFICATION_FAILED: 'PASSKEY_VERIFICATION_FAILED',
  PASSKEY_LINK_LIMIT: 'PASSKEY_LINK_LIMIT',
  /** The authenticator or the server already holds this credential (WebAuthn InvalidStateError, a duplicate id). */
  PASSKEY_ALREADY_LINKED: 'PASSKEY_ALREADY_LINKED',
  PASSKEY_ENROLLED_IN_MFA: 'PASSKEY_ENROLLED_IN_MFA',
  // MFA (docs/mfa.md)
  /** A key route or factor change without a fresh MFA verification of this session. */
  MFA_REQUIRED: 'MFA_REQUIRED',
  /** A wrong MFA code (or an authenticator code already used). */
  MFA_INVALID_CODE: 'MFA_INVALID_CODE',
  /** The user's MFA code attempts are spent until the window ends (`retry_after`). */
  MFA_MAX_ATTEMPTS: 'MFA_MAX_ATTEMPTS',
  /** The app does not offer this MFA method (its `mfa_methods` setting). */
  MFA_METHOD_NOT_ALLOWED: 'MFA_METHOD_NOT_ALLOWED',
  /** The user has no such MFA method to verify with or remove. */
  MFA_NOT_ENROLLED: 'MFA_NOT_ENROLLED',
  /** The user already has this MFA method. */
  MFA_ALREADY_ENROLLED: 'MFA_ALREADY_ENROLLED',
  /** No MFA setup to confirm: never started, or older than its lifetime. */
  MFA_ENROLLMENT_EXPIRED: 'MFA_ENROLLMENT_EXPIRED',
  /** No MFA code was entered within the wait (client-side, spec 02 §9: 5 minutes). */
  MFA_TIMEOUT: 'MFA_TIMEOUT',
  /** The user closed the MFA verification (client-side). */
  MFA_CANCELED: 'MFA_CANCELED',
  /** The phone to enroll for SMS MFA is the user's SMS login. */
  MFA_SMS_PHONE_IS_LOGIN: 'MFA_SMS_PHONE_IS_LOGIN',
  /** A passkey to enable for MFA is not one of the user's linked passkeys. */
  MFA_PASSKEY_NOT_LINKED: 'MFA_PASSKEY_NOT_LINKED',
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
  // App backends (server-to-server routes under the app secret; docs/server-api.md)
  /** No `Authorization: Basic` app credentials, or their app id is not the `latchkey-app-id` header's. */
  APP_AUTH_REQUIRED: 'APP_AUTH_REQUIRED',
  /** The app secret is wrong, revoked, or another app's. */
  INVALID_APP_SECRET: 'INVALID_APP_SECRET',
  /** App credentials sent by a browser (the request has an Origin): the secret must stay on servers. */
  APP_SECRET_FROM_BROWSER: 'APP_SECRET_FROM_BROWSER',
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
  /** More characters typed or pasted into the code boxes than a code has (spec 02 §5). */
  CODE_TOO_LONG: 'CODE_TOO_LONG',
  ALREADY_LOGGED_IN: 'ALREADY_LOGGED_IN',
  NOT_AUTHENTICATED: 'NOT_AUTHENTICATED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  /** `GET /ready`: the server is starting or draining, or its database or Redis does not answer (docs/operations.md). */
  NOT_READY: 'NOT_READY',
  /** The database or the rate limiter's store (Redis) does not answer: retry shortly (docs/operations.md "Failures"). */
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  // Client side: external wallets (spec 01 §8 "Wallet"); provider codes map here (core/external/errors.ts)
  WALLET_USER_REJECTED: 'WALLET_USER_REJECTED',
  WALLET_REQUEST_TIMEOUT: 'WALLET_REQUEST_TIMEOUT',
  WALLET_CONNECT_FAILED: 'WALLET_CONNECT_FAILED',
  WALLET_NO_ACCOUNTS: 'WALLET_NO_ACCOUNTS',
  WALLET_REQUEST_PENDING: 'WALLET_REQUEST_PENDING',
  WALLET_DISCONNECTED: 'WALLET_DISCONNECTED',
  WALLET_NOT_FOUND_EXTERNAL: 'WALLET_NOT_FOUND_EXTERNAL',
  /** Phantom (a two-chain wallet) picked for Ethereum while its Ethereum side is off (spec 01 §8). */
  WALLET_MULTICHAIN_DISABLED: 'WALLET_MULTICHAIN_DISABLED',
  INVALID_CHAINS: 'INVALID_CHAINS',
  // Transactions (spec 03 §8 "Transactions"); hosts switch on these.
  /** No embedded wallet at the address, or it is not connected yet (spec 03 §8). */
  EMBEDDED_WALLET_NOT_FOUND: 'EMBEDDED_WALLET_NOT_FOUND',
  /** No embedded or connected wallet at the address asked to sign. */
  UNABLE_TO_SIGN: 'UNABLE_TO_SIGN',
  UNKNOWN_CONNECT_WALLET_ERROR: 'UNKNOWN_CONNECT_WALLET_ERROR',
  /** The wallet cannot pay the value plus the fee. */
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  /** The chain node refused the transaction, or it failed on chain (Solana). */
  TRANSACTION_FAILURE: 'TRANSACTION_FAILURE',
  /** The receipt says reverted: 'Transaction failed'. */
  TRANSACTION_REVERTED: 'TRANSACTION_REVERTED',
  /** Gas estimation says the call would fail. */
  TRANSACTION_PREPARE_FAILED: 'TRANSACTION_PREPARE_FAILED',
  /** Preparing failed for a reason of ours (the node unreachable, a bad answer). */
  TRANSACTION_PREPARE_ERROR: 'TRANSACTION_PREPARE_ERROR',
  TRANSACTION_SIGN_FAILED: 'TRANSACTION_SIGN_FAILED',
  INVALID_TRANSACTION_REQUEST: 'INVALID_TRANSACTION_REQUEST',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  // Prices (spec 03 §7 "Prices and tokens"); the screens then show no dollar value.
  /** The server has no price source (LATCHKEY_PRICE_API_URL unset). */
  PRICES_NOT_CONFIGURED: 'PRICES_NOT_CONFIGURED',
  /** A symbol the server's price table does not list. */
  UNKNOWN_TOKEN: 'UNKNOWN_TOKEN',
  /** The price source failed or did not price the token. */
  PRICE_UNAVAILABLE: 'PRICE_UNAVAILABLE',
  // Funding (spec 03 §8 "Funding"; docs/funding.md); the chooser shows these in its banner.
  /** The app offers no funding option, or funding is off: 'Wallet funding is not enabled'. */
  FUNDING_NOT_ENABLED: 'FUNDING_NOT_ENABLED',
  /** An add-funds click while the method picked is off: 'Funding wallet is not enabled'. */
  FUNDING_METHOD_NOT_ENABLED: 'FUNDING_METHOD_NOT_ENABLED',
  /** The funding chain is not in the provider's chains list (`{id}`). */
  FUNDING_CHAIN_NOT_CONFIGURED: 'FUNDING_CHAIN_NOT_CONFIGURED',
  FUNDING_USDC_SOLANA_TESTNET: 'FUNDING_USDC_SOLANA_TESTNET',
  /** A funding request the client or server cannot read. */
  FUNDING_INVALID_DATA: 'FUNDING_INVALID_DATA',
  /** The app has no funding settings for the method or provider asked for. */
  FUNDING_CONFIG_NOT_FOUND: 'FUNDING_CONFIG_NOT_FOUND',
  /** The card provider reported a failure, or its status failed 3 times. */
  FUNDING_PROVIDER_FAILED: 'FUNDING_PROVIDER_FAILED',
  /** The provider's pop-up could not open. */
  FUNDING_FLOW_INIT_FAILED: 'FUNDING_FLOW_INIT_FAILED',
  /** Any other failed funding step. */
  FUNDING_FAILED: 'FUNDING_FAILED',
  /** The Coinbase-style on-ramp does not serve this chain. */
  FUNDING_UNSUPPORTED_CHAIN: 'FUNDING_UNSUPPORTED_CHAIN',
  /** The source wallet of a transfer cannot pay the amount (`{address}`). */
  FUNDING_WALLET_INSUFFICIENT_FUNDS: 'FUNDING_WALLET_INSUFFICIENT_FUNDS',
  /** The user refused the transfer in their wallet. */
  FUNDING_USER_REJECTED: 'FUNDING_USER_REJECTED',
  /** The user refused a request that is not the transfer itself (switching the wallet's network). */
  FUNDING_REQUEST_REJECTED: 'FUNDING_REQUEST_REJECTED',
  BRIDGE_QUOTE_FAILED: 'BRIDGE_QUOTE_FAILED',
  BRIDGE_OPTION_FAILED: 'BRIDGE_OPTION_FAILED',
  TOKEN_DETAILS_FAILED: 'TOKEN_DETAILS_FAILED',
  /** The bridge reported failure or refund: funds come back (a refund status link). */
  BRIDGE_FAILED: 'BRIDGE_FAILED',
  BRIDGE_TIMED_OUT: 'BRIDGE_TIMED_OUT',
  BRIDGE_INSUFFICIENT_BALANCE: 'BRIDGE_INSUFFICIENT_BALANCE',
  BRIDGE_TRANSACTION_FAILED: 'BRIDGE_TRANSACTION_FAILED',
  /** Server: the app has no credentials for that on-ramp provider. */
  ONRAMP_NOT_CONFIGURED: 'ONRAMP_NOT_CONFIGURED',
  /** Server: the on-ramp provider's API failed or answered something unreadable. */
  ONRAMP_PROVIDER_ERROR: 'ONRAMP_PROVIDER_ERROR',
  // Delegated actions (spec 03 §2, §5, §8 "Delegation"; docs/delegated-actions.md)
  /** Server: the address to delegate is not one of the user's own embedded wallets. */
  DELEGATION_ADDRESS_NOT_OWNED: 'DELEGATION_ADDRESS_NOT_OWNED',
  /** Server: the sealed share does not open, or does not rebuild the wallet's address. */
  DELEGATION_SHARE_INVALID: 'DELEGATION_SHARE_INVALID',
  /** Server: a signing request for a wallet that is not (or no longer) delegated. */
  WALLET_NOT_DELEGATED: 'WALLET_NOT_DELEGATED',
  /** Server: the request breaks the app's delegation policy (the detail names the rule). */
  DELEGATION_POLICY_VIOLATION: 'DELEGATION_POLICY_VIOLATION',
  /** Server: the wallet's value sent in the last 24 hours would pass the app's daily cap. */
  DELEGATION_DAILY_CAP_REACHED: 'DELEGATION_DAILY_CAP_REACHED',
  /** Client: the user declined the delegation consent. */
  DELEGATION_DECLINED: 'DELEGATION_DECLINED',
  /** Client: the user declined revoking the delegation. */
  DELEGATION_REVOKE_DECLINED: 'DELEGATION_REVOKE_DECLINED',
  // Cross-app (spec 03 §8 "Cross-app"; docs/cross-app.md)
  /** The code does not hold (unknown, spent, expired, another requester's, wrong PKCE verifier). */
  CROSS_APP_CONNECT_FAILED: 'CROSS_APP_CONNECT_FAILED',
  /** Client: the user closed the provider's popup. */
  CROSS_APP_CANCELED: 'CROSS_APP_CANCELED',
  /** Client: no answer from the provider's popup within 2 minutes. */
  CROSS_APP_TIMEOUT: 'CROSS_APP_TIMEOUT',
  /** Client: the user declined in the provider's popup. */
  CROSS_APP_REJECTED: 'CROSS_APP_REJECTED',
  /** Unknown provider app, cross-app off, or the provider does not allow this requester. */
  CROSS_APP_INVALID_APP: 'CROSS_APP_INVALID_APP',
  /** Client: the popup's answer carries another state (spec 03 §5). */
  CROSS_APP_STATE_MISMATCH: 'CROSS_APP_STATE_MISMATCH',
  /** A transact token that is unknown, expired, or not this provider user's. */
  CROSS_APP_INVALID_TOKEN: 'CROSS_APP_INVALID_TOKEN',
  /** The provider app shares accounts read-only. */
  CROSS_APP_READ_ONLY: 'CROSS_APP_READ_ONLY',
  /** Client: the address is not one of the connection's wallets. */
  CROSS_APP_ADDRESS_NOT_CONNECTED: 'CROSS_APP_ADDRESS_NOT_CONNECTED',
  /** Client: the provider's page could not be reached to start a signature request. */
  CROSS_APP_SIGNATURE_INIT_FAILED: 'CROSS_APP_SIGNATURE_INIT_FAILED',
  // Wallet rules (spec 02 §8, spec 03 §8; error-catalogue-wallet-rules.ts)
  /** Server: a SIWS login or link with the address of an embedded Solana wallet. */
  EMBEDDED_SOLANA_WALLET_LOGIN: 'EMBEDDED_SOLANA_WALLET_LOGIN',
  /** Server and client: unlinking one of the user's embedded Solana wallets as an external one. */
  EMBEDDED_SOLANA_WALLET_UNLINK: 'EMBEDDED_SOLANA_WALLET_UNLINK',
  /** Client: the enclave frame failed to load; wallet calls fail at once. */
  WALLET_PROXY_INIT_FAILED: 'WALLET_PROXY_INIT_FAILED',
  /** Client: wallets were created for a password flow, but setting the password failed. */
  WALLET_PASSWORD_NOT_SET: 'WALLET_PASSWORD_NOT_SET',
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]
