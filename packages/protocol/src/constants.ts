/**
 * Constants shared by server, core and react. What code on the first
 * chunk's path (session restore, HTTP, provider) uses lives here; the
 * modal's and the wallets' live in the sibling modules re-exported below,
 * so bundlers keep them out of the first chunk (docs/first-load.md).
 */

export * from './constants-modal.ts'
export * from './constants-wallets.ts'

/** Timings and limits from spec 01 §9 and the foundation issue. Milliseconds unless named. */
export const API_TIMEOUT_MS = 20_000
export const API_MAX_RETRIES = 3
export const API_RETRY_BASE_DELAY_MS = 500
export const API_RETRY_STATUSES: readonly number[] = [408, 409, 425, 500, 502, 503, 504]

export const TOKEN_EXPIRY_MARGIN_MS = 30_000
export const ACCESS_TOKEN_TTL_S = 60 * 60
export const REFRESH_MARKER_COOKIE_DAYS = 30

export const APP_ID_LENGTH = 25

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
