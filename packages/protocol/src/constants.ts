/** Timings and limits from spec 01 §9 and the foundation issue. Milliseconds unless named. */
export const CODE_LENGTH = 6
/** Spec 01 §5, §9: a user holds at most this many passkeys (other account types: 1). */
export const MAX_PASSKEYS_PER_USER = 5
export const CODE_RESEND_COOLDOWN_MS = 30_000
export const CODE_TTL_MS = 10 * 60_000
export const CODE_MAX_ATTEMPTS = 5
export const WRONG_CODE_CLEAR_DELAY_MS = 1_400
export const SUCCESS_CLOSE_DELAY_MS = 1_400
export const POST_LOGIN_DELAY_MS = 900
/** Spec 02 §9: the account-transfer 'Success!' closes the modal 1 s later. */
export const TRANSFER_SUCCESS_CLOSE_DELAY_MS = 1_000
/** 'Account deleted' closes the modal 1 s later (useDeleteAccount; as the transfer's success). */
export const ACCOUNT_DELETED_CLOSE_DELAY_MS = 1_000
export const LOGIN_MESSAGE_MAX_LENGTH = 100
export const MAX_PRIMARY_LOGIN_METHODS = 4
export const MODAL_OPEN_DELAY_MS = 15
export const MODAL_RESET_DELAY_MS = 500
export const MODAL_WIDTH_PX = 360
export const MODAL_BREAKPOINT_PX = 441

export const API_TIMEOUT_MS = 20_000
export const API_MAX_RETRIES = 3
export const API_RETRY_BASE_DELAY_MS = 500
export const API_RETRY_STATUSES: readonly number[] = [408, 409, 425, 500, 502, 503, 504]

export const TOKEN_EXPIRY_MARGIN_MS = 30_000
export const ACCESS_TOKEN_TTL_S = 60 * 60
export const REFRESH_MARKER_COOKIE_DAYS = 30

export const APP_ID_LENGTH = 25
export const DEFAULT_LANDING_HEADER = 'Log in or sign up'
export const DEFAULT_ACCENT_COLOR = '#676FFF'
export const DEFAULT_COUNTRY = 'US'

export const CLIENT_NAME = 'latchkey-react'
export const CLIENT_VERSION = '0.1.0'

/** Request headers the client sends and the server reads (spec 01 §7). */
export const Header = {
  appId: 'latchkey-app-id',
  clientId: 'latchkey-client-id',
  analyticsId: 'latchkey-ca-id',
  client: 'latchkey-client',
  /**
   * On a login request: the RFC 7638 thumbprint of the enclave's device key,
   * which the new session is bound to (docs/security.md "Key routes answer
   * only to the enclave").
   */
  enclaveKey: 'latchkey-enclave-key',
  /** On a key route: the enclave's per-request proof (RFC 9449 DPoP shape). */
  enclaveProof: 'dpop',
} as const

/** Local storage keys (spec 01 §3 "Stored locally"). `{appId}` is substituted. */
export const StorageKey = {
  accessToken: 'latchkey:token',
  refreshToken: 'latchkey:refresh_token',
  identityToken: 'latchkey:id_token',
  analyticsId: 'latchkey:caid',
  recentLoginMethod: 'latchkey:recent-login-method:{appId}',
  /** External wallet connection records (address, connector, wallet client, connected at). */
  walletConnections: 'latchkey:wallet-connections:{appId}',
  /** The most recent external wallet client and chain type. */
  recentWallet: 'latchkey:recent-wallet:{appId}',
  /**
   * Rewritten (a fresh value) whenever a tab changes the logged-in user
   * without new tokens (link, unlink, a wallet): the app's other tabs fetch
   * the user again (docs/client.md "Sessions across tabs").
   */
  userChanged: 'latchkey:user-changed:{appId}',
} as const

export const REFRESH_MARKER_COOKIE = 'latchkey-session'

/**
 * The first-party cookie the client mirrors the access token into when the
 * app opts in (`accessTokenCookie`), so the app's own server can read the
 * session while rendering (docs/nextjs.md). Lives as long as the token.
 */
export const ACCESS_TOKEN_COOKIE = 'latchkey-token'

/**
 * The server's login-method switches when an app sets none: email on,
 * everything else off until its issue lands and the app enables it.
 */
export const DEFAULT_LOGIN_METHOD_SWITCHES = {
  email: true,
  sms: false,
  wallet: false,
  google: false,
  apple: false,
  discord: false,
  github: false,
  linkedin: false,
  spotify: false,
  instagram: false,
  twitter: false,
  tiktok: false,
  line: false,
  telegram: false,
  farcaster: false,
  passkey: false,
  guest: false,
} as const

/** Wallet proxy (enclave iframe) timings (spec 02 §9, spec 03). */
export const ENCLAVE_INIT_TIMEOUT_MS = 30_000
/** Import and Solana message signing wait less for the proxy. */
export const ENCLAVE_SHORT_INIT_TIMEOUT_MS = 15_000
/** Every enclave message's `event` starts with this (ARCHITECTURE "Names"). */
export const ENCLAVE_EVENT_PREFIX = 'latchkey:'
export const ENCLAVE_READY_EVENT = 'latchkey:iframe:ready'
/**
 * Enclave key proofs (docs/security.md "Key routes answer only to the
 * enclave"): a compact JWS with header `typ` this value, `alg` ES256 and the
 * public `jwk`; claims `htm`, `htu`, `iat`, `jti`, `ath` (RFC 9449 §4.2).
 */
export const ENCLAVE_PROOF_TYP = 'dpop+jwt'
/** A proof's `iat` may be this far from the server's clock, either way. */
export const ENCLAVE_PROOF_MAX_SKEW_S = 60
/** Longest `jti` a proof may carry. */
export const ENCLAVE_PROOF_JTI_MAX_LENGTH = 64
/**
 * MFA (docs/mfa.md). A verification lets its session (bound to one enclave
 * device key) past the MFA check of key routes for this long: issue 18, "A
 * verification lasts 15 minutes per device".
 */
export const MFA_VERIFICATION_TTL_MS = 15 * 60_000
/** Codes (right or wrong) a user may submit to MFA per window; a right one resets the count. */
export const MFA_MAX_CODE_ATTEMPTS = 5
/** The attempt window, from its first code; once the attempts are spent, MFA is locked until it ends. */
export const MFA_ATTEMPT_WINDOW_MS = 15 * 60_000
/** RFC 6238 time step of authenticator-app (TOTP) codes, in seconds. */
export const TOTP_PERIOD_S = 30
/** An authenticator-app setup must be confirmed with a code within this long of its start. */
export const MFA_ENROLLMENT_TTL_MS = 10 * 60_000
/** The wallet-created screen ("Welcome" / "All set!") closes itself after this long (spec 02). */
export const WALLET_CREATED_CLOSE_DELAY_MS = 2_500
/** Spec 03 §4, §9: the connect-wallet screen stays up at least this long when export opened it. */
export const CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS = 1_000
/** The sign-message screen's details box never grows taller than this (spec 03 §9). */
export const SIGN_MESSAGE_DETAILS_MAX_HEIGHT_PX = 310
/** Spec 02 §5, §9: recovery password strength (score thresholds, and the length below which it is Weak). */
export const PASSWORD_STRENGTH_MEDIUM = 0.5
export const PASSWORD_STRENGTH_STRONG = 0.9
export const PASSWORD_STRENGTH_MIN_LENGTH = 8
/** Spec 02 §9: a downloaded password's blob URL is revoked this long after the download starts. */
export const DOWNLOAD_URL_REVOKE_DELAY_MS = 5_000
/** Spec 02 §9: 'Copied' feedback after copying the password. */
export const COPY_FEEDBACK_MS = 1_500
/** Spec 02 §9: the copy button's confirm (check) icon after a copy. */
export const COPY_CONFIRM_ICON_MS = 2_000

/** How the spec's messages name each cloud-recovery provider (spec 02 "Recovery by cloud drive"). */
export const CLOUD_RECOVERY_PROVIDER_NAMES = {
  'google-drive': 'Google Drive',
  icloud: 'iCloud',
} as const

/**
 * The social login providers (spec 01 "Capabilities"), also their linked
 * accounts' types. Here, without zod, so the client's first chunk can use it.
 */
export const OAUTH_PROVIDERS = [
  'google',
  'apple',
  'discord',
  'github',
  'linkedin',
  'spotify',
  'instagram',
  'twitter',
  'tiktok',
  'line',
] as const

// External wallets and Farcaster (spec 01 §4, §9).
/** A failed wallet connection may be retried this many times, then only "Use a different wallet". */
export const WALLET_RETRY_LIMIT = 2
/** Spec 01 §9: wallet JSON-RPC requests (connect, sign) time out after this (overridable per wallet). */
export const WALLET_RPC_TIMEOUT_MS = 120_000
/** Spec 01 §9: how long EIP-6963 announcements and a legacy `window.ethereum` are awaited. */
export const INJECTED_DETECTION_TIMEOUT_MS = 3_000
/** Spec 01 §9: an SDK connector (WalletConnect, Coinbase) not initialised by then is skipped. */
export const CONNECTOR_INIT_TIMEOUT_MS = 1_500
/** Spec 01 §9: the polling helper's defaults, 150 ms apart, 270 attempts (about 40 s). */
export const POLL_INTERVAL_MS = 150
export const POLL_ATTEMPTS = 270
/** Spec 01 §9: a wallet's accounts and chain are looked up 10 times, 500 ms apart, before giving up. */
export const WALLET_LOOKUP_INTERVAL_MS = 500
export const WALLET_LOOKUP_ATTEMPTS = 10
/** Spec 01 §9: MetaMask over WalletConnect is asked to sign this long after it connected. */
export const METAMASK_WALLETCONNECT_SIGN_DELAY_MS = 2_500
/** The mobile-wallet redirect screen shows "Still here?" this long after Continue. */
export const MOBILE_REDIRECT_STILL_HERE_MS = 1_000
/** Spec 01 §9: on a phone, the WalletConnect screen checks this often whether it can open the wallet app. */
export const WALLET_CONNECT_REDIRECT_POLL_MS = 500
/** Farcaster channel status is polled this often, and given up on after the timeout. */
export const FARCASTER_POLL_INTERVAL_MS = 2_000
export const FARCASTER_TIMEOUT_MS = 120_000
/** Spec 03 §9: a Farcaster signer request is polled every 2 s and given up on after 5 min. */
export const FARCASTER_SIGNER_POLL_INTERVAL_MS = 2_000
export const FARCASTER_SIGNER_TIMEOUT_MS = 5 * 60_000
/** A sign-in nonce (SIWE, SIWS, Farcaster) is valid this long after init. */
export const SIGN_IN_NONCE_TTL_MS = 10 * 60_000
/** A SIWE/SIWS `Issued At` may be this far from the server's clock (either way). */
export const SIGN_IN_ISSUED_AT_SKEW_MS = 10 * 60_000
/** Connect-only wallet list: rows shown before "More wallets", row height and visible rows. */
export const CONNECT_LIST_MAX_WALLETS = 4
export const CONNECT_LIST_SEARCH_THRESHOLD = 6
export const WALLET_LIST_ROW_HEIGHT_PX = 54
export const WALLET_LIST_VISIBLE_ROWS = 5
/**
 * QR code sizes (spec 01 §9): 160 px by default; a code the screen is about
 * (WalletConnect pairing, Farcaster sign-in) 240 to 280 px; error correction Q.
 */
export const QR_CODE_SIZE_PX = 160
export const QR_CODE_LARGE_MIN_PX = 240
export const QR_CODE_LARGE_MAX_PX = 280
export const QR_CODE_ERROR_CORRECTION = 'Q'
/** The Solana sign-in message names this chain (spec 01 §9). */
export const SIWS_CHAIN_ID = 'mainnet'

/** HTTP header that carries the channel token of a Farcaster status poll (spec 01 §7). */
export const FARCASTER_CHANNEL_TOKEN_HEADER = 'farcaster-channel-token'

/** How an external wallet is connected (spec 01 §3 "Connected wallet"). */
export const CONNECTOR_TYPES = [
  'injected',
  'wallet_connect_v2',
  'coinbase_wallet',
  'base_account',
  'solana_adapter',
] as const
export type ConnectorType = (typeof CONNECTOR_TYPES)[number]
/** Spec 02 §4 / §9: a wallet operation asks for MFA at most this many times, then max-attempts-reached. */
export const MFA_OPERATION_ATTEMPTS = 4
/** Spec 02 §9: how long the verification screen waits for a code before MFA_TIMEOUT. */
export const MFA_CODE_WAIT_MS = 300_000
/** Spec 02 §9: the enrollment modal resets its selections this long after closing. */
export const MFA_MODAL_RESET_MS = 500
/**
 * How long the enclave keeps a rebuilt key once its page is hidden (docs/mfa.md
 * "Warm keys"): a tab in the background this long drops it.
 */
export const ENCLAVE_WARM_KEY_HIDDEN_MS = 60_000
