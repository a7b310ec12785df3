import {
  type CreateOnLoginConfig,
  type LoginMethod,
  MFA_METHOD_ORDER,
  type MfaMethod,
} from '@latchkey/core'
import type { EvmChain, WalletChainType } from '@latchkey/core/external'
import type { TransactionScanner } from '@latchkey/core/transactions'
import { DEFAULT_ACCENT_COLOR, LOGIN_MESSAGE_MAX_LENGTH } from '@latchkey/protocol/constants'
import type { AppConfig } from '@latchkey/protocol/schemas'
import type { ReactElement } from 'react'
import type { LatchkeyAppearance, LatchkeyLegal } from './config-appearance.ts'
import { effectiveLoginMethods } from './config-login-methods.ts'
import type { LoginOptions } from './login-options.ts'
import type { LandingEntry } from './modal/landing-entries.ts'
import { SOCIAL_METHODS } from './modal/landing-entries.ts'
import type { SolanaCluster } from './solana-clusters.ts'

export {
  configKey,
  effectiveLoginMethods,
  IMPLEMENTED_LOGIN_METHODS,
} from './config-login-methods.ts'
export type { LandingEntry, LatchkeyAppearance, LatchkeyLegal }

/** A cross-app login entry: `latchkey:{provider app id}` (spec 01 §1; docs/cross-app.md). */
export type CrossAppLoginMethod = `latchkey:${string}`

/**
 * What the host app configures on `LatchkeyProvider` (spec 01 §3
 * "Host-supplied configuration"). Anything left out falls back to the app's
 * configuration on the server.
 */
export interface LatchkeyConfig {
  appearance?: LatchkeyAppearance
  legal?: LatchkeyLegal
  /**
   * Login methods to offer, in order. Default: the methods enabled on the server.
   * `latchkey:{appId}` entries offer cross-app login with that provider app
   * (docs/cross-app.md).
   */
  loginMethods?: Array<LoginMethod | CrossAppLoginMethod>
  /**
   * Rows and overflow of the landing screen explicitly; wins over
   * `loginMethods`. `primary` are the rows (duplicates dropped with a
   * warning, more than 4 warned), `overflow` goes behind 'More options'.
   * Wallets of the wallet list ('metamask', 'detected_wallets'…) may be
   * listed too: in `primary` each gets a row, in `overflow` they go behind
   * 'Other wallets'; 'wallet' is the 'Continue with a wallet' button.
   */
  loginMethodsAndOrder?: { primary: LandingEntry[]; overflow?: LandingEntry[] }
  /** `defaultCountry`: the phone input's initial country (ISO 3166 alpha-2; default 'US'). */
  intl?: { defaultCountry?: string }
  /** Refuse `name+tag@host` addresses (spec 01 §5). */
  disablePlusEmails?: boolean
  /**
   * Also keep the short-lived access token in the first-party cookie
   * `latchkey-token` (SameSite=Strict), so the app's own server can read the
   * session while rendering: a Next.js server component verifies it with
   * `verifyAccessToken` (docs/nextjs.md). Changing it starts a new client.
   * Default false.
   */
  accessTokenCookie?: boolean
  /**
   * EVM chains the app supports (viem chain objects); external wallets are
   * switched to `defaultChain` (default: the first) before signing in.
   * Default `[mainnet]`. Must be non-empty and contain `defaultChain`.
   */
  chains?: EvmChain[]
  defaultChain?: EvmChain
  /**
   * Solana clusters the app sends on (spec 03 §9); a Solana transaction
   * names one by `name`, else goes to the first. Default
   * `[{ name: 'mainnet-beta', rpcUrl: 'https://api.mainnet-beta.solana.com' }]`.
   * The confirm screen calls 'mainnet-beta' 'Solana', 'devnet' 'Devnet',
   * 'testnet' 'Testnet', and any other cluster (a local ledger) by its name.
   */
  solanaClusters?: SolanaCluster[]
  /**
   * `loginConfig.passkeysForSignupEnabled` (spec 01 §3): the passkey button
   * offers 'Create new account' as well as 'Log in with a passkey'. Default
   * false: passkeys log in existing users, who link them from their account.
   */
  loginConfig?: { passkeysForSignupEnabled?: boolean }
  /**
   * MFA (docs/mfa.md). `noPromptOnMfaRequired`: when a wallet action needs
   * MFA the modal does not open; the app draws its own UI from `useMfa()`.
   */
  mfa?: { noPromptOnMfaRequired?: boolean }
  /**
   * Transactions (docs/transactions.md). `scan`: the app's scan function
   * (spec 03 §3 "Transaction scan result"), run before the user confirms;
   * without one the confirm screen simulates the transaction on the chain's
   * own node (`eth_simulateV1`) unless `simulation` is false.
   */
  transactions?: { scan?: TransactionScanner; simulation?: boolean }
  /** `shouldUnlinkOnUnenrollMfa`: removing a passkey from MFA also unlinks it as a login. */
  passkeys?: { shouldUnlinkOnUnenrollMfa?: boolean }
  /** External wallet connectors. */
  externalWallets?: {
    /**
     * WalletConnect v2: on when a Cloud project id is given; `relayUrl` points
     * it at a relay of your own (default WalletConnect's).
     */
    walletConnect?: { enabled?: boolean; projectId?: string; relayUrl?: string }
    /** How long a wallet may take to answer a request (spec 01 §9: default 120000 ms). */
    rpcTimeoutMs?: number
    /** Per-wallet `rpcTimeoutMs`, by wallet client type: `{ metamask: 180_000 }`. */
    rpcTimeoutMsByWallet?: Record<string, number>
  }
  /** Embedded wallets (spec 01 §3): which chains get a wallet right after login. */
  embeddedWallets?: {
    createOnLogin?: Partial<CreateOnLoginConfig>
    /**
     * 'user-controlled-server-wallets-only' offers no password or cloud
     * backup (spec 02 §5: user-owned recovery is unsupported in that mode).
     * Default: the app's server setting; either side choosing it wins.
     */
    mode?: EmbeddedWalletMode
    /** New wallets must get a user-owned recovery method (password or cloud backup) when they are created. */
    requireUserOwnedRecoveryOnCreate?: boolean
    /**
     * The user-owned recovery methods to offer, in order. Default: the app's
     * server setting. Google Drive and iCloud appear only when the server has
     * the app's credentials for them.
     */
    userOwnedRecoveryOptions?: UserOwnedRecoveryMethod[]
    /**
     * The embedded Solana wallet. `walletStandard` (default true): it is
     * registered as the Wallet Standard wallet "Latchkey", so
     * `@solana/wallet-adapter-react` apps list it (docs/solana-wallet-standard.md).
     */
    solana?: { walletStandard?: boolean }
  }
}

export type UserOwnedRecoveryMethod = 'user-passcode' | 'google-drive' | 'icloud'

/** Spec 03 §9 "Solana clusters": the cluster a Solana transaction uses when the app names none. */
/** `embeddedWallets.mode` (spec 01 §3). */
export type EmbeddedWalletMode = AppConfig['embedded_wallet_config']['mode']
const SERVER_WALLETS_ONLY = 'user-controlled-server-wallets-only'

/** Spec 02 §5: server-wallet-only mode (host's or server's) has automatic recovery only. */
const userOwnedRecoveryAllowed = (host: LatchkeyConfig, app: AppConfig | null) =>
  host.embeddedWallets?.mode !== SERVER_WALLETS_ONLY &&
  app?.embedded_wallet_config.mode !== SERVER_WALLETS_ONLY

/** Host configuration merged over the server's: what the modal renders from. */
export interface ResolvedConfig {
  appName: string | null
  theme: 'light' | 'dark'
  accentColor: string
  logo: string | ReactElement | null
  landingHeader: string | null
  loginMessage: string | null
  showLatchkeyBranding: boolean
  termsAndConditionsUrl: string | null
  privacyPolicyUrl: string | null
  requireUsersAcceptTerms: boolean
  /** `legal.alwaysShowFooter`: the landing footer shows even when terms must be accepted. */
  alwaysShowFooter: boolean
  disablePlusEmails: boolean
  /** The methods to draw, in order; empty is a configuration error (NO_LOGIN_METHODS). */
  loginMethods: LoginMethod[]
  /** `loginMethodsAndOrder`, when the host gave one. */
  loginMethodsAndOrder: { primary: LandingEntry[]; overflow: LandingEntry[] } | null
  /** Provider app ids of the host's `latchkey:{appId}` entries, in order (cross-app login). */
  crossAppProviders: string[]
  /** After spec 01 §5's wallet-first rule. */
  loginGroupPriority: 'web2-first' | 'web3-first'
  hideDirectWeb2Inputs: boolean
  /** The phone input's initial country. */
  defaultCountry: string
  /** The app sends codes by WhatsApp rather than SMS. */
  whatsappEnabled: boolean
  /** `loginConfig.passkeysForSignupEnabled`: new accounts may be created with a passkey. */
  passkeysForSignup: boolean
  /** The MFA methods the app lets users enroll (its `mfa_methods`), in the chooser's order. */
  mfaMethods: MfaMethod[]
  /** The modal opens the verification when a wallet action needs MFA (`mfa.noPromptOnMfaRequired` off). */
  mfaPrompts: boolean
  /** `passkeys.shouldUnlinkOnUnenrollMfa`. */
  unlinkPasskeyOnMfaRemoval: boolean
  /** Which chains get a wallet right after login (default off, spec 01 §9). */
  createOnLogin: CreateOnLoginConfig
  /** Wallet creation asks for a user-owned recovery method first (spec 02). */
  requireUserOwnedRecoveryOnCreate: boolean
  /**
   * User-owned recovery methods on offer: a password at least, none in
   * server-wallet-only mode.
   */
  userOwnedRecoveryOptions: UserOwnedRecoveryMethod[]
  /** `embeddedWallets.mode`, host or server (spec 01 §3). */
  embeddedWalletMode: EmbeddedWalletMode
  /** `appearance.walletList`, when the host gave one. */
  walletList: string[] | null
  walletChainType: WalletChainType
  /** A broken `chains` / `defaultChain` (spec 01 §5): the modal shows it instead of logging in. */
  chainsError: { code: 'INVALID_CHAINS' | 'UNSUPPORTED_CHAIN'; id?: number } | null
}

/** Spec 01 §5: the chain list must be non-empty and hold the default chain. */
export function chainsConfigError(host: LatchkeyConfig): ResolvedConfig['chainsError'] {
  const { chains, defaultChain } = host
  if (chains && chains.length === 0) return { code: 'INVALID_CHAINS' }
  if (chains && defaultChain && !chains.some((chain) => chain.id === defaultChain.id))
    return { code: 'UNSUPPORTED_CHAIN', id: defaultChain.id }
  return null
}

/** The login message, cut to 100 characters (spec 01 §5). */
export function cutLoginMessage(message: string | undefined | null): string | null {
  if (!message) return null
  return message.slice(0, LOGIN_MESSAGE_MAX_LENGTH)
}

/**
 * Spec 01 §5: wallet-first login is forced off when wallet login is off,
 * and forced on when no email, SMS or social login is on.
 */
export function loginGroupPriority(
  wanted: 'web2-first' | 'web3-first' | undefined,
  methods: readonly LoginMethod[],
): 'web2-first' | 'web3-first' {
  if (!methods.includes('wallet')) return 'web2-first'
  const web2 = methods.some((m) => m === 'email' || m === 'sms' || SOCIAL_METHODS.has(m))
  return web2 ? (wanted ?? 'web2-first') : 'web3-first'
}

/**
 * The user-owned recovery methods to offer: the host's list, else the app's;
 * cloud methods only when the server offers them (it lists them only with
 * credentials); a password when nothing else remains.
 */
function recoveryOptions(host: LatchkeyConfig, app: AppConfig | null): UserOwnedRecoveryMethod[] {
  const served = app?.embedded_wallet_config.user_owned_recovery_options ?? []
  const wanted = host.embeddedWallets?.userOwnedRecoveryOptions ?? served
  const options = [...new Set(wanted)].filter(
    (method) => method === 'user-passcode' || served.includes(method),
  )
  return options.length > 0 ? options : ['user-passcode']
}

/** Merges host configuration over the server's; the host wins where both say something. */
export function resolveConfig(host: LatchkeyConfig, app: AppConfig | null): ResolvedConfig {
  const appearance = host.appearance ?? {}
  const legal = host.legal ?? {}
  const loginMethods = effectiveLoginMethods(host, app)
  return {
    appName: app?.name ?? null,
    theme: appearance.theme ?? 'light',
    accentColor: appearance.accentColor ?? app?.accent_color ?? DEFAULT_ACCENT_COLOR,
    logo: appearance.logo ?? app?.logo_url ?? null,
    landingHeader: appearance.landingHeader ?? null,
    loginMessage: cutLoginMessage(appearance.loginMessage),
    showLatchkeyBranding: appearance.showLatchkeyBranding ?? true,
    termsAndConditionsUrl: legal.termsAndConditionsUrl ?? app?.terms_and_conditions_url ?? null,
    privacyPolicyUrl: legal.privacyPolicyUrl ?? app?.privacy_policy_url ?? null,
    requireUsersAcceptTerms:
      legal.requireUsersAcceptTerms ?? app?.require_users_accept_terms ?? false,
    alwaysShowFooter: legal.alwaysShowFooter ?? false,
    disablePlusEmails: host.disablePlusEmails ?? app?.disable_plus_emails ?? false,
    loginMethods,
    crossAppProviders: [
      ...new Set(
        (host.loginMethods ?? [])
          .filter((m): m is CrossAppLoginMethod => m.startsWith('latchkey:'))
          .map((m) => m.slice('latchkey:'.length)),
      ),
    ],
    loginMethodsAndOrder: host.loginMethodsAndOrder
      ? {
          primary: host.loginMethodsAndOrder.primary,
          overflow: host.loginMethodsAndOrder.overflow ?? [],
        }
      : null,
    loginGroupPriority: loginGroupPriority(appearance.loginGroupPriority, loginMethods),
    hideDirectWeb2Inputs: appearance.hideDirectWeb2Inputs ?? false,
    defaultCountry: host.intl?.defaultCountry ?? 'US',
    whatsappEnabled: app?.whatsapp_enabled ?? false,
    passkeysForSignup:
      host.loginConfig?.passkeysForSignupEnabled ?? app?.passkeys_for_signup_enabled ?? false,
    mfaMethods: MFA_METHOD_ORDER.filter((method) => app?.mfa_methods.includes(method)),
    mfaPrompts: host.mfa?.noPromptOnMfaRequired !== true,
    unlinkPasskeyOnMfaRemoval: host.passkeys?.shouldUnlinkOnUnenrollMfa ?? false,
    requireUserOwnedRecoveryOnCreate:
      userOwnedRecoveryAllowed(host, app) &&
      (host.embeddedWallets?.requireUserOwnedRecoveryOnCreate ??
        app?.embedded_wallet_config.require_user_owned_recovery_on_create ??
        false),
    userOwnedRecoveryOptions: userOwnedRecoveryAllowed(host, app) ? recoveryOptions(host, app) : [],
    embeddedWalletMode: userOwnedRecoveryAllowed(host, app)
      ? 'legacy-embedded-wallets-only'
      : SERVER_WALLETS_ONLY,
    walletList: appearance.walletList ?? null,
    walletChainType: appearance.walletChainType ?? 'ethereum-only',
    chainsError: chainsConfigError(host),
    createOnLogin: {
      ethereum:
        host.embeddedWallets?.createOnLogin?.ethereum ??
        app?.embedded_wallet_config.create_on_login.ethereum ??
        'off',
      solana:
        host.embeddedWallets?.createOnLogin?.solana ??
        app?.embedded_wallet_config.create_on_login.solana ??
        'off',
    },
  }
}

/**
 * The configuration one login draws from (spec 01 §3 "Login data"):
 * `login()`'s own `loginMethods` replace the app's list and order. Intent
 * 'connect-or-create' (spec 01 §4) puts wallets first, and a login by any
 * method but a wallet ends with an embedded wallet for users without one
 * (Solana for Solana-only apps, else Ethereum) however `createOnLogin` is set.
 *
 * @example
 * resolveLoginConfig(host, app, { loginMethods: ['email'] }).loginMethods // ['email']
 */
export function resolveLoginConfig(
  host: LatchkeyConfig,
  app: AppConfig | null,
  options: Pick<LoginOptions, 'loginMethods' | 'intent' | 'walletChainType'>,
  loginMethod: LoginMethod | null = null,
): ResolvedConfig {
  const connectOrCreate = options.intent === 'connect-or-create'
  if (!options.loginMethods && !connectOrCreate) return resolveConfig(host, app)
  const { loginMethodsAndOrder: _replaced, ...rest } = host
  const forLogin: LatchkeyConfig = {
    ...(options.loginMethods ? { ...rest, loginMethods: options.loginMethods } : host),
    ...(connectOrCreate
      ? { appearance: { ...host.appearance, loginGroupPriority: 'web3-first' as const } }
      : {}),
  }
  const config = resolveConfig(forLogin, app)
  if (!connectOrCreate || loginMethod === 'wallet') return config
  const walletChainType = options.walletChainType ?? config.walletChainType
  const chain = walletChainType === 'solana-only' ? 'solana' : 'ethereum'
  if (config.createOnLogin[chain] !== 'off') return config
  return { ...config, createOnLogin: { ...config.createOnLogin, [chain]: 'users-without-wallets' } }
}
