import { sessionRoutes } from './session-routes.ts'

export { sessionRoutes }

/**
 * HTTP paths of the Latchkey API, relative to the server's base URL. Plain
 * strings (no zod) so the browser client can import them for free. The ones
 * a page uses before anything else come from `sessionRoutes`.
 */
export const routes = {
  ...sessionRoutes,
  jwks: (appId: string) => `/api/v1/apps/${appId}/jwks.json`,
  emailInit: '/api/v1/passwordless/init',
  emailAuthenticate: '/api/v1/passwordless/authenticate',
  emailLink: '/api/v1/passwordless/link',
  emailUnlink: '/api/v1/passwordless/unlink',
  emailUpdate: '/api/v1/passwordless/update',
  openapi: '/api/v1/openapi.json',
  health: '/health',
  ready: '/ready',
  devMailbox: '/api/v1/dev/mailbox',
  embeddedWalletsCreate: '/api/v1/embedded_wallets',
  embeddedWalletsAdd: '/api/v1/embedded_wallets/add',
  embeddedWalletsAuthShare: '/api/v1/embedded_wallets/auth_share',
  embeddedWalletsRecovery: '/api/v1/embedded_wallets/recovery',
  embeddedWalletsSetRecovery: '/api/v1/embedded_wallets/recovery/set',
  embeddedWalletsKeyActivity: '/api/v1/embedded_wallets/key_activity',
  recoveryOAuthInit: '/api/v1/recovery/oauth/init',
  recoveryOAuthInitIcloud: '/api/v1/recovery/oauth/init_icloud',
  recoveryOAuthAuthenticate: '/api/v1/recovery/oauth/authenticate',
  telegramAuthenticate: '/api/v1/telegram/authenticate',
  telegramLink: '/api/v1/telegram/link',
  telegramUnlink: '/api/v1/telegram/unlink',
  customJwtAuthenticate: '/api/v1/custom_jwt_account/authenticate',
  customJwtLink: '/api/v1/custom_jwt_account/link',
  guestAuthenticate: '/api/v1/guest/authenticate',
  smsInit: '/api/v1/passwordless_sms/init',
  smsAuthenticate: '/api/v1/passwordless_sms/authenticate',
  smsLink: '/api/v1/passwordless_sms/link',
  smsUnlink: '/api/v1/passwordless_sms/unlink',
  smsUpdate: '/api/v1/passwordless_sms/update',
  devOutbox: '/api/v1/dev/outbox',
  oauthInit: '/api/v1/oauth/init',
  oauthAuthenticate: '/api/v1/oauth/authenticate',
  oauthLink: '/api/v1/oauth/link',
  oauthUnlink: '/api/v1/oauth/unlink',
  siweInit: '/api/v1/siwe/init',
  siweAuthenticate: '/api/v1/siwe/authenticate',
  siweLink: '/api/v1/siwe/link',
  siweUnlink: '/api/v1/siwe/unlink',
  siwsInit: '/api/v1/siws/init',
  siwsAuthenticate: '/api/v1/siws/authenticate',
  siwsLink: '/api/v1/siws/link',
  siwsUnlink: '/api/v1/siws/unlink',
  farcasterInit: '/api/v1/farcaster/init',
  farcasterStatus: '/api/v1/farcaster/status',
  farcasterAuthenticate: '/api/v1/farcaster/authenticate',
  farcasterLink: '/api/v1/farcaster/link',
  farcasterUnlink: '/api/v1/farcaster/unlink',
  /** Starts a Farcaster signed key request for the enclave's ed25519 key (an enclave route; spec 03 §7). */
  farcasterSignerInit: '/api/v1/farcaster/signer/init',
  /** The signer request's state for one of the user's keys (spec 03 §7). */
  farcasterSignerStatus: '/api/v1/farcaster/signer/status',
  passkeyRegisterInit: '/api/v1/passkeys/register/init',
  passkeyRegister: '/api/v1/passkeys/register',
  passkeyAuthenticateInit: '/api/v1/passkeys/authenticate/init',
  passkeyAuthenticate: '/api/v1/passkeys/authenticate',
  passkeyLinkInit: '/api/v1/passkeys/link/init',
  passkeyLink: '/api/v1/passkeys/link',
  passkeyUnlink: '/api/v1/passkeys/unlink',
  captchaAltchaChallenge: '/api/v1/captcha/altcha/challenge',
  usersAcceptTerms: '/api/v1/users/me/accept_terms',
  /** Deletes the signed-in user (a key route: the enclave's own origin and proof). */
  usersDelete: '/api/v1/users/me/delete',
  emailTransfer: '/api/v1/passwordless/transfer',
  smsTransfer: '/api/v1/passwordless_sms/transfer',
  oauthTransfer: '/api/v1/oauth/transfer',
  siweTransfer: '/api/v1/siwe/transfer',
  siwsTransfer: '/api/v1/siws/transfer',
  farcasterTransfer: '/api/v1/farcaster/transfer',
  telegramTransfer: '/api/v1/telegram/transfer',
  /** The signed-in user's MFA factors and this session's verification (docs/mfa.md). */
  mfa: '/api/v1/mfa',
  /** Starts an authenticator-app (TOTP) setup: secret and otpauth:// URI (an enclave route). */
  mfaTotpInit: '/api/v1/mfa/totp/init',
  /** Confirms the authenticator-app setup with a code (an enclave route). */
  mfaTotpEnroll: '/api/v1/mfa/totp/enroll',
  /** Verifies an MFA code for this session (an enclave route). */
  mfaVerify: '/api/v1/mfa/verify',
  /** Removes an MFA method (an enclave route; needs a fresh verification). */
  mfaUnenroll: '/api/v1/mfa/unenroll',
  /** Sends an SMS MFA code: to a phone being enrolled, or to the enrolled phone (an enclave route). */
  mfaSmsInit: '/api/v1/mfa/sms/init',
  /** Confirms an SMS MFA setup with its code (an enclave route). */
  mfaSmsEnroll: '/api/v1/mfa/sms/enroll',
  /** Assertion options for verifying with an MFA passkey (an enclave route). */
  mfaPasskeyInit: '/api/v1/mfa/passkey/init',
  /** Enables linked passkeys as MFA (an enclave route). */
  mfaPasskeyEnroll: '/api/v1/mfa/passkey/enroll',
  /** Ends this session's MFA verification window (spec 02 §7 "clear MFA"). */
  mfaClear: '/api/v1/mfa/clear',
  /** A token's USD price by chain and symbol (spec 03 §7 "Prices and tokens"; docs/transactions.md). */
  tokenPrice: '/api/v1/token_price',
  /** A mint's symbol and decimals (spec 03 §7 "Prices and tokens"; docs/funding.md). */
  splTokenInfo: '/api/v1/spl_token_info',
  /** Funding (docs/funding.md): a signed MoonPay widget URL for one of the user's wallets. */
  fundingMoonpaySign: '/api/v1/funding/moonpay/sign',
  /** A Coinbase Onramp session (pay URL and partner user id) for one of the user's wallets. */
  fundingCoinbaseSession: '/api/v1/funding/coinbase/session',
  /** The outcome of the user's latest Coinbase Onramp purchase. */
  fundingCoinbaseStatus: '/api/v1/funding/coinbase/status',
  /** App backends, under the app secret (docs/server-api.md): the app's users, a page at a time. */
  appUsers: '/api/v1/users',
  /** One user of the app by id (an app-secret route; `/users/me` is the signed-in user's). */
  appUser: (userId: string) => `/api/v1/users/${userId}`,
  /** Deletes a user of the app, as `latchkey users delete` does (an app-secret route). */
  appUserDelete: (userId: string) => `/api/v1/users/${userId}/delete`,
  /** A user's embedded wallets, public data only (an app-secret route). */
  appUserWallets: (userId: string) => `/api/v1/users/${userId}/wallets`,
  /** Finds a user of the app by email, phone, wallet address or linked account (an app-secret route). */
  appUserLookup: '/api/v1/users/lookup',
  /** The server's delegation public key (P-256) the enclave seals a delegated device share to (public). */
  embeddedWalletsDelegationKey: '/api/v1/embedded_wallets/delegation_key',
  /** Hands the server a device share sealed to its delegation key (an enclave route, MFA; docs/delegated-actions.md). */
  embeddedWalletsDelegate: '/api/v1/embedded_wallets/delegate',
  /** Revokes every delegated wallet of the signed-in user in this app (an empty POST). */
  embeddedWalletsRevoke: '/api/v1/embedded_wallets/revoke',
  /** The signed-in user's audit log of server-side signatures, newest first. */
  embeddedWalletsDelegatedActions: '/api/v1/embedded_wallets/delegated_actions',
  /** Signs (or sends) with a delegated wallet, under the app secret (docs/delegated-actions.md). */
  walletRpc: (walletId: string) => `/api/v1/wallets/${walletId}/rpc`,
  /** Cross-app (spec 03 §7; docs/cross-app.md): a provider app's public details. */
  crossAppDetails: (providerAppId: string) => `/api/v1/apps/${providerAppId}/cross-app/details`,
  /** The signed-in requester user's cross-app connections. */
  crossAppConnections: (requesterAppId: string) =>
    `/api/v1/apps/${requesterAppId}/cross-app/connections`,
  /** The provider page: who is asking (name and logo for the consent screen). */
  crossAppRequester: '/api/v1/cross-app/requester',
  /** The provider page: the provider's user accepts; a single-use code for the requester. */
  crossAppAuthorize: '/api/v1/cross-app/authorize',
  /** The requester: trades the code (PKCE) for a session and a transact token. */
  crossAppAuthenticate: '/api/v1/cross-app/authenticate',
  /** The requester: links the provider account to the signed-in user. */
  crossAppLink: '/api/v1/cross-app/link',
  /** The provider page: checks a requester's transact token before showing a signature request. */
  crossAppTransactVerify: '/api/v1/cross-app/transact/verify',
  /**
   * Smart wallets (docs/smart-wallets.md): the signed-in user's ERC-4337
   * JSON-RPC for one chain: the bundler's methods, relayed to the app's
   * bundler, and ERC-7677 `pm_*`, answered under the app's sponsorship policy.
   */
  smartWalletRpc: (chainId: number) => `/api/v1/smart_wallets/${chainId}/rpc`,
  /** Links the user's smart wallet: a SIWE message its account signed (ERC-1271 / ERC-6492). */
  smartWalletLink: '/api/v1/smart_wallets/link',
} as const
