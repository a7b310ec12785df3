import type {
  AllowlistEntry,
  AppConfig,
  CrossAppSettings,
  LoginMethodSwitches,
} from '@latchkey/protocol'
import { assertCrossAppSettings } from '../auth/cross-app/schema.ts'
import { assertCustomAuthSettings } from '../auth/custom-jwt/schema.ts'
import { assertTelegramAuthSettings } from '../auth/telegram/schema.ts'
import { isTurnstileSiteKey } from '../captcha/provider.ts'
import { assertFundingSettings, type FundingSettings } from '../funding/settings.ts'
import { assertSmartWalletSettings, type SmartWalletSettings } from '../smart-wallets/settings.ts'
import { assertMaxUsersSetting } from '../users/user-limit.ts'
import { assertAllowlistConfig, assertAllowlistSettings } from './allowlist-settings.ts'

/** What an app may configure; every field optional, defaults in {@link toAppConfig}. */
export interface AppSettings {
  /**
   * OAuth login (docs/login-oauth.md). `return_provider_tokens`: authenticate
   * answers carry the provider's access / refresh tokens (`oauth_tokens`).
   */
  oauth?: { return_provider_tokens?: boolean }
  logo_url?: string | null
  accent_color?: string | null
  login_methods?: Partial<LoginMethodSwitches>
  terms_and_conditions_url?: string | null
  privacy_policy_url?: string | null
  require_users_accept_terms?: boolean
  disable_plus_emails?: boolean
  /** New accounts may be created with a passkey (the modal's 'Create new account'). */
  passkeys_for_signup_enabled?: boolean
  captcha_enabled?: boolean
  captcha_site_key?: string | null
  allowlist_config?: Partial<AppConfig['allowlist_config']>
  /**
   * Restricts login to listed emails, email domains, phone numbers, wallet
   * addresses and wallet names (docs/access-control.md). Off unless enabled.
   */
  allowlist?: { enabled?: boolean; entries?: AllowlistEntry[] }
  /** Test apps: at most this many users; sign-ups beyond it get USER_LIMIT_REACHED. */
  max_users?: number | null
  embedded_wallet_config?: Partial<Omit<AppConfig['embedded_wallet_config'], 'create_on_login'>> & {
    create_on_login?: Partial<AppConfig['embedded_wallet_config']['create_on_login']>
  }
  /**
   * MFA methods the app's users may enroll (docs/mfa.md): a subset of
   * 'sms', 'totp', 'passkey'; default none. Factors already enrolled stay
   * enforced and verifiable when a method is taken off.
   */
  mfa_methods?: AppConfig['mfa_methods']
  whatsapp_enabled?: boolean
  /**
   * Telegram login (docs/login-telegram.md): the bot's public id and username;
   * its token is a provider credential (apps/credentials.ts, sealed).
   * `link_enabled` allows linking Telegram to a signed-in user (default true),
   * `seamless_auth_enabled` accepts Mini App initData (default false).
   */
  telegram_auth_config?: {
    bot_id: string
    bot_name: string
    link_enabled?: boolean
    seamless_auth_enabled?: boolean
  }
  /**
   * EVM chain ids a SIWE message may name (docs/login-wallets.md); default
   * DEFAULT_SIWE_CHAIN_IDS. Smart-account signatures also need the server's
   * RPC endpoint for the chain (`chainRpcUrls`).
   */
  chains?: number[]
  /** Custom-JWT login (docs/login-custom-jwt.md); validated by auth/custom-jwt/schema.ts. */
  custom_auth?: {
    jwks_url?: string
    public_key_pem?: string
    issuer: string
    audience: string
    subject_claim?: string
  }
  /**
   * Wallet funding (docs/funding.md): the chooser's options, default amount
   * and asset, bridging, MoonPay's publishable key; validated by
   * funding/settings.ts. The provider secrets are credentials (sealed).
   */
  funding?: FundingSettings
  /**
   * Cross-app sharing as a provider app (docs/cross-app.md): other apps on this
   * server may log their users in with this app's accounts and ask its
   * embedded wallets to sign on the page at `custom_api_url`.
   */
  cross_app?: CrossAppSettings
  /** Smart wallets and sponsored gas (docs/smart-wallets.md); validated by smart-wallets/settings.ts. */
  smart_wallets?: SmartWalletSettings
}

/** The top-level keys of {@link AppSettings} (the CLI refuses others). */
export const APP_SETTING_KEYS: readonly string[] = [
  'oauth',
  'logo_url',
  'accent_color',
  'login_methods',
  'terms_and_conditions_url',
  'privacy_policy_url',
  'require_users_accept_terms',
  'disable_plus_emails',
  'passkeys_for_signup_enabled',
  'captcha_enabled',
  'captcha_site_key',
  'allowlist_config',
  'allowlist',
  'max_users',
  'embedded_wallet_config',
  'mfa_methods',
  'whatsapp_enabled',
  'telegram_auth_config',
  'chains',
  'custom_auth',
  'funding',
  'cross_app',
  'smart_wallets',
] satisfies ReadonlyArray<keyof AppSettings>

/** Settings that are switches: anything but true or false is refused. */
const BOOLEAN_SETTINGS = [
  'require_users_accept_terms',
  'disable_plus_emails',
  'passkeys_for_signup_enabled',
  'captcha_enabled',
  'whatsapp_enabled',
] as const satisfies ReadonlyArray<keyof AppSettings>

export function buildSettings(input: {
  logoUrl?: string | null
  accentColor?: string | null
  settings?: AppSettings
}): AppSettings {
  const settings: AppSettings = { ...(input.settings ?? {}) }
  if (settings.custom_auth !== undefined) assertCustomAuthSettings(settings.custom_auth)
  if (settings.telegram_auth_config !== undefined)
    assertTelegramAuthSettings(settings.telegram_auth_config)
  if (settings.allowlist !== undefined) assertAllowlistSettings(settings.allowlist)
  if (settings.allowlist_config !== undefined) assertAllowlistConfig(settings.allowlist_config)
  if (settings.max_users !== undefined) assertMaxUsersSetting(settings.max_users)
  if (settings.embedded_wallet_config !== undefined)
    assertEmbeddedWalletMode(settings.embedded_wallet_config)
  if (settings.mfa_methods !== undefined) assertMfaMethods(settings.mfa_methods)
  if (settings.funding !== undefined) assertFundingSettings(settings.funding)
  if (settings.cross_app !== undefined) assertCrossAppSettings(settings.cross_app)
  if (settings.smart_wallets !== undefined) assertSmartWalletSettings(settings.smart_wallets)
  for (const key of BOOLEAN_SETTINGS)
    if (settings[key] !== undefined && typeof settings[key] !== 'boolean')
      throw new Error(`${key} must be true or false`)
  // Spec 01 §5: a captcha site key has Turnstile's form (docs/captcha.md).
  if (settings.captcha_site_key && !isTurnstileSiteKey(settings.captcha_site_key))
    throw new Error('captcha_site_key must be a Turnstile site key, e.g. 0x4AAAAAAA…')
  if (input.logoUrl !== undefined) settings.logo_url = input.logoUrl
  if (input.accentColor !== undefined) {
    if (input.accentColor !== null && !/^#[0-9a-fA-F]{6}$/.test(input.accentColor))
      throw new Error('The accent colour must look like #676FFF')
    settings.accent_color = input.accentColor
  }
  return settings
}

const MFA_METHODS: readonly string[] = ['sms', 'totp', 'passkey']

/** `mfa_methods`: a list of distinct methods among sms, totp, passkey. */
function assertMfaMethods(methods: unknown): void {
  if (
    !Array.isArray(methods) ||
    methods.some((m) => typeof m !== 'string' || !MFA_METHODS.includes(m)) ||
    new Set(methods).size !== methods.length
  )
    throw new Error(
      `mfa_methods must be a list of distinct methods among ${MFA_METHODS.join(', ')}`,
    )
}

const EMBEDDED_WALLET_MODES = [
  'legacy-embedded-wallets-only',
  'user-controlled-server-wallets-only',
]

/**
 * `embedded_wallet_config.mode` (spec 01 §3): 'legacy-embedded-wallets-only'
 * (the default: any recovery the app offers) or
 * 'user-controlled-server-wallets-only' (automatic recovery only, spec 02 §5),
 * which cannot also require user-owned recovery on create.
 */
function assertEmbeddedWalletMode(config: NonNullable<AppSettings['embedded_wallet_config']>) {
  if (config.mode === undefined) return
  if (!EMBEDDED_WALLET_MODES.includes(config.mode))
    throw new Error(
      `embedded_wallet_config.mode must be one of ${EMBEDDED_WALLET_MODES.join(', ')}`,
    )
  if (
    config.mode === 'user-controlled-server-wallets-only' &&
    config.require_user_owned_recovery_on_create
  )
    throw new Error(
      'embedded_wallet_config: user-controlled-server-wallets-only allows no user-owned recovery, so it cannot require one on create',
    )
}
