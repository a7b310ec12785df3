/**
 * Enclave, MFA, external-wallet and Farcaster constants. A module of their
 * own, re-exported by constants.ts: only lazily loaded code uses them, so
 * none lands in the first chunk (docs/first-load.md).
 */

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
/**
 * How long the enclave keeps a rebuilt key once its page is hidden (docs/mfa.md
 * "Warm keys"): a tab in the background this long drops it.
 */
export const ENCLAVE_WARM_KEY_HIDDEN_MS = 60_000
