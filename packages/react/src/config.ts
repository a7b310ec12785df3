import type { CreateOnLoginConfig, LoginMethod } from '@latchkey/core'
import type { EvmChain, WalletChainType } from '@latchkey/core/external'
import {
  DEFAULT_ACCENT_COLOR,
  LOGIN_MESSAGE_MAX_LENGTH,
  OAUTH_PROVIDERS,
} from '@latchkey/protocol/constants'
import type { AppConfig } from '@latchkey/protocol/schemas'
import type { ReactElement } from 'react'

/** `appearance` of the host-supplied configuration (spec 01 §3). */
export interface LatchkeyAppearance {
  /** `palette.colorScheme` of the spec. Default `'light'`. */
  theme?: 'light' | 'dark'
  /** A CSS colour; overrides the server's accent colour. */
  accentColor?: string
  /** A URL or an element, shown on the landing screen (max 180×90). */
  logo?: string | ReactElement
  /** Replaces the default landing header 'Log in or sign up'. */
  landingHeader?: string
  /** A short line under the header; cut to 100 characters. */
  loginMessage?: string
  /** The 'Protected by Latchkey' footer. Default `true`. */
  showLatchkeyBranding?: boolean
  /** Email, SMS and socials before wallets (default), or wallets first. */
  loginGroupPriority?: 'web2-first' | 'web3-first'
  /** Email and phone become buttons that open their input, instead of inputs on the landing screen. */
  hideDirectWeb2Inputs?: boolean
  /**
   * The wallet list, in order: wallet slugs (`metamask`, `coinbase_wallet`,
   * `rainbow`, `phantom`, `wallet_connect`…) and `detected_wallets` (also
   * `detected_ethereum_wallets` / `detected_solana_wallets`). Default:
   * detected wallets, metamask, coinbase_wallet, rainbow, wallet_connect.
   */
  walletList?: string[]
  /** Which external wallets the lists offer. Default `'ethereum-only'`. */
  walletChainType?: WalletChainType
}

/** `legal` of the host-supplied configuration (spec 01 §3). */
export interface LatchkeyLegal {
  termsAndConditionsUrl?: string
  privacyPolicyUrl?: string
  requireUsersAcceptTerms?: boolean
}

/**
 * What the host app configures on `LatchkeyProvider` (spec 01 §3
 * "Host-supplied configuration"). Anything left out falls back to the app's
 * configuration on the server.
 */
export interface LatchkeyConfig {
  appearance?: LatchkeyAppearance
  legal?: LatchkeyLegal
  /** Login methods to offer, in order. Default: the methods enabled on the server. */
  loginMethods?: LoginMethod[]
  /**
   * Rows and overflow of the landing screen explicitly; wins over
   * `loginMethods`. `primary` are the rows (duplicates dropped with a
   * warning, more than 4 warned), `overflow` goes behind 'More options'.
   */
  loginMethodsAndOrder?: { primary: LoginMethod[]; overflow?: LoginMethod[] }
  /** `defaultCountry`: the phone input's initial country (ISO 3166 alpha-2; default 'US'). */
  intl?: { defaultCountry?: string }
  /** Refuse `name+tag@host` addresses (spec 01 §5). */
  disablePlusEmails?: boolean
  /**
   * EVM chains the app supports (viem chain objects); external wallets are
   * switched to `defaultChain` (default: the first) before signing in.
   * Default `[mainnet]`. Must be non-empty and contain `defaultChain`.
   */
  chains?: EvmChain[]
  defaultChain?: EvmChain
  /**
   * `loginConfig.passkeysForSignupEnabled` (spec 01 §3): the passkey button
   * offers 'Create new account' as well as 'Log in with a passkey'. Default
   * false: passkeys log in existing users, who link them from their account.
   */
  loginConfig?: { passkeysForSignupEnabled?: boolean }
  /** External wallet connectors. */
  externalWallets?: {
    /** WalletConnect v2: on when a Cloud project id is given. */
    walletConnect?: { enabled?: boolean; projectId?: string }
  }
  /** Embedded wallets (spec 01 §3): which chains get a wallet right after login. */
  embeddedWallets?: {
    createOnLogin?: Partial<CreateOnLoginConfig>
    /** New wallets must get a user-owned recovery method (password or cloud backup) when they are created. */
    requireUserOwnedRecoveryOnCreate?: boolean
    /**
     * The user-owned recovery methods to offer, in order. Default: the app's
     * server setting. Google Drive and iCloud appear only when the server has
     * the app's credentials for them.
     */
    userOwnedRecoveryOptions?: UserOwnedRecoveryMethod[]
  }
}

export type UserOwnedRecoveryMethod = 'user-passcode' | 'google-drive' | 'icloud'

/** Login methods this version of the modal can draw. Later login methods add themselves here. */
export const IMPLEMENTED_LOGIN_METHODS: readonly LoginMethod[] = [
  'email',
  'sms',
  ...OAUTH_PROVIDERS,
  'telegram',
  'wallet',
  'farcaster',
  'passkey',
]

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
  disablePlusEmails: boolean
  /** The methods to draw, in order; empty is a configuration error (NO_LOGIN_METHODS). */
  loginMethods: LoginMethod[]
  /** `loginMethodsAndOrder`, when the host gave one. */
  loginMethodsAndOrder: { primary: LoginMethod[]; overflow: LoginMethod[] } | null
  loginGroupPriority: 'web2-first' | 'web3-first'
  hideDirectWeb2Inputs: boolean
  /** The phone input's initial country. */
  defaultCountry: string
  /** The app sends codes by WhatsApp rather than SMS. */
  whatsappEnabled: boolean
  /** `loginConfig.passkeysForSignupEnabled`: new accounts may be created with a passkey. */
  passkeysForSignup: boolean
  /** Which chains get a wallet right after login (default off, spec 01 §9). */
  createOnLogin: CreateOnLoginConfig
  /** Wallet creation asks for a user-owned recovery method first (spec 02). */
  requireUserOwnedRecoveryOnCreate: boolean
  /** User-owned recovery methods on offer (never empty: a password at least). */
  userOwnedRecoveryOptions: UserOwnedRecoveryMethod[]
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

function serverLoginMethods(app: AppConfig | null): LoginMethod[] {
  if (!app) return [...IMPLEMENTED_LOGIN_METHODS]
  return (Object.keys(app.login_methods) as Array<keyof AppConfig['login_methods']>).filter(
    (name): name is LoginMethod => name !== 'guest' && app.login_methods[name],
  )
}

/** The login methods the modal offers: the host's list, else the server's, limited to implemented ones. */
export function effectiveLoginMethods(host: LatchkeyConfig, app: AppConfig | null): LoginMethod[] {
  const order = host.loginMethodsAndOrder
  const wanted = order
    ? [...order.primary, ...(order.overflow ?? [])]
    : (host.loginMethods ?? serverLoginMethods(app))
  return [...new Set(wanted)].filter((method) => IMPLEMENTED_LOGIN_METHODS.includes(method))
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
    disablePlusEmails: host.disablePlusEmails ?? app?.disable_plus_emails ?? false,
    loginMethods: effectiveLoginMethods(host, app),
    loginMethodsAndOrder: host.loginMethodsAndOrder
      ? {
          primary: host.loginMethodsAndOrder.primary,
          overflow: host.loginMethodsAndOrder.overflow ?? [],
        }
      : null,
    loginGroupPriority: appearance.loginGroupPriority ?? 'web2-first',
    hideDirectWeb2Inputs: appearance.hideDirectWeb2Inputs ?? false,
    defaultCountry: host.intl?.defaultCountry ?? 'US',
    whatsappEnabled: app?.whatsapp_enabled ?? false,
    passkeysForSignup:
      host.loginConfig?.passkeysForSignupEnabled ?? app?.passkeys_for_signup_enabled ?? false,
    requireUserOwnedRecoveryOnCreate:
      host.embeddedWallets?.requireUserOwnedRecoveryOnCreate ??
      app?.embedded_wallet_config.require_user_owned_recovery_on_create ??
      false,
    userOwnedRecoveryOptions: recoveryOptions(host, app),
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
 * A key that changes only when the configuration's content does, so an inline
 * `config={{…}}` does not count as a new configuration on every render.
 */
export function configKey(config: LatchkeyConfig | undefined): string {
  return JSON.stringify(config ?? {}, (_key, value) =>
    value && typeof value === 'object' && '$$typeof' in value ? '[element]' : value,
  )
}
