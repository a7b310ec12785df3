import type { MoreFields } from './more-settings.ts'
import type { SettingsFields } from './settings-form.ts'
import type { SignInFields } from './sign-in-settings.ts'
import type { SmartWalletFields } from './smart-wallets-settings.ts'

// Which form field edits each app setting (packages/server/src/apps/settings.ts
// `AppSettings`), by dotted path: a top-level key, or a key inside an object
// setting. A list of objects (allowlist entries, funding options, smart-wallet
// chains) is one field. console-ui.settings-coverage.test.ts walks the
// server's settings keys and fails on a key that is in neither
// SETTING_FIELDS nor RAW_ONLY_SETTINGS, so a new setting cannot miss the
// console unnoticed.

/** A form of the app screen and one of its fields (the `…Fields` key). */
export type SettingField =
  | readonly ['settings', keyof SettingsFields]
  | readonly ['more', keyof MoreFields]
  | readonly ['sign-in', keyof SignInFields]
  | readonly ['smart-wallets', keyof SmartWalletFields]

/** Every setting a form edits, and the field that edits it. */
export const SETTING_FIELDS: Readonly<Record<string, SettingField>> = {
  'oauth.return_provider_tokens': ['sign-in', 'returnProviderTokens'],
  logo_url: ['settings', 'logoUrl'],
  accent_color: ['settings', 'accentColor'],
  // Each switch of DEFAULT_LOGIN_METHOD_SWITCHES is a checkbox of this field.
  login_methods: ['settings', 'loginMethods'],
  terms_and_conditions_url: ['settings', 'termsUrl'],
  privacy_policy_url: ['settings', 'privacyUrl'],
  require_users_accept_terms: ['settings', 'requireTerms'],
  disable_plus_emails: ['more', 'disablePlusEmails'],
  passkeys_for_signup_enabled: ['more', 'passkeySignup'],
  captcha_enabled: ['settings', 'captchaEnabled'],
  captcha_site_key: ['more', 'captchaSiteKey'],
  'allowlist_config.error_title': ['more', 'allowlistErrorTitle'],
  'allowlist_config.error_detail': ['more', 'allowlistErrorDetail'],
  'allowlist_config.error_cta_text': ['more', 'allowlistErrorCtaText'],
  'allowlist_config.error_cta_link': ['more', 'allowlistErrorCtaLink'],
  'allowlist.enabled': ['settings', 'allowlistEnabled'],
  'allowlist.entries': ['more', 'allowlistEntries'],
  max_users: ['settings', 'maxUsers'],
  'embedded_wallet_config.create_on_login.ethereum': ['settings', 'createEthereum'],
  'embedded_wallet_config.create_on_login.solana': ['settings', 'createSolana'],
  'embedded_wallet_config.require_user_owned_recovery_on_create': [
    'more',
    'requireRecoveryOnCreate',
  ],
  'embedded_wallet_config.user_owned_recovery_options': ['more', 'recoveryOptions'],
  'embedded_wallet_config.mode': ['more', 'walletMode'],
  mfa_methods: ['settings', 'mfaMethods'],
  whatsapp_enabled: ['more', 'whatsappEnabled'],
  'telegram_auth_config.bot_id': ['sign-in', 'telegramBotId'],
  'telegram_auth_config.bot_name': ['sign-in', 'telegramBotName'],
  'telegram_auth_config.link_enabled': ['sign-in', 'telegramLink'],
  'telegram_auth_config.seamless_auth_enabled': ['sign-in', 'telegramSeamless'],
  chains: ['more', 'chains'],
  'custom_auth.jwks_url': ['sign-in', 'jwksUrl'],
  'custom_auth.public_key_pem': ['sign-in', 'publicKeyPem'],
  'custom_auth.issuer': ['sign-in', 'issuer'],
  'custom_auth.audience': ['sign-in', 'audience'],
  'custom_auth.subject_claim': ['sign-in', 'subjectClaim'],
  'funding.enabled': ['more', 'fundingEnabled'],
  'funding.options': ['more', 'fundingOptions'],
  'funding.default_recommended_amount': ['more', 'fundingAmount'],
  'funding.default_recommended_asset': ['more', 'fundingAsset'],
  'funding.cross_chain_bridging_enabled': ['more', 'fundingBridging'],
  'funding.moonpay.publishable_key': ['more', 'moonpayKey'],
  'funding.moonpay.sandbox': ['more', 'moonpaySandbox'],
  'cross_app.enabled': ['sign-in', 'crossAppEnabled'],
  'cross_app.read_only': ['sign-in', 'crossAppReadOnly'],
  'cross_app.allowed_requester_app_ids': ['sign-in', 'crossAppRequesters'],
  'cross_app.custom_api_url': ['sign-in', 'crossAppUrl'],
  'smart_wallets.enabled': ['smart-wallets', 'enabled'],
  'smart_wallets.type': ['smart-wallets', 'type'],
  // Each chain's id, bundler URL and paymaster (kind, address, URL, context) is a row of this field.
  'smart_wallets.chains': ['smart-wallets', 'chains'],
  'smart_wallets.sponsorship_policy.contracts': ['smart-wallets', 'contracts'],
  'smart_wallets.sponsorship_policy.max_operations_per_user_per_day': [
    'smart-wallets',
    'maxOperations',
  ],
  'smart_wallets.sponsorship_policy.max_gas_cost_per_user_per_day': ['smart-wallets', 'maxGasCost'],
}

/**
 * Settings deliberately left to "All settings (JSON)", each with the reason.
 * Empty: every setting the server accepts has a form field. Add a key here
 * only with a reason a developer would accept (e.g. a setting for operators
 * that a form would invite mistakes with); otherwise give it a field.
 */
export const RAW_ONLY_SETTINGS: Readonly<Record<string, string>> = {}
