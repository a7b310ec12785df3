import type { Settings } from './api.ts'

// The spec's settings beyond the common form (settings-form.ts) as fields:
// allowlist entries and rejection texts, SIWE chains, the embedded-wallet
// mode and recovery, funding, and the switches of the email, WhatsApp and
// passkey logins. Saving sends only the settings
// whose fields changed; the server validates them as the CLI does
// (apps/service.ts updateAppSettings), so a bad value shows its message.

export const RECOVERY_OPTIONS = ['user-passcode', 'google-drive', 'icloud'] as const
export const ALLOWLIST_TYPES = [
  'email',
  'email_domain',
  'phone',
  'wallet_address',
  'wallet_name',
] as const
export const FUNDING_ASSETS = ['native-currency', 'USDC'] as const
/** `embedded_wallet_config.mode` (spec 01 §3), the default first. */
export const WALLET_MODES = [
  'legacy-embedded-wallets-only',
  'user-controlled-server-wallets-only',
] as const

/** The rejection screen's texts: each field and its `allowlist_config` key. */
export const ALLOWLIST_TEXTS = [
  ['allowlistErrorTitle', 'error_title'],
  ['allowlistErrorDetail', 'error_detail'],
  ['allowlistErrorCtaText', 'error_cta_text'],
  ['allowlistErrorCtaLink', 'error_cta_link'],
] as const
export type AllowlistTextField = (typeof ALLOWLIST_TEXTS)[number][0]

export interface MoreFields {
  /** One entry a line: `TYPE VALUE` (e.g. `email_domain @example.com`). */
  allowlistEntries: string
  /** `allowlist_config`: what a refused user reads; empty: the modal's own wording. */
  allowlistErrorTitle: string
  allowlistErrorDetail: string
  allowlistErrorCtaText: string
  /** The button opens this page instead of going back (http(s)). */
  allowlistErrorCtaLink: string
  /** EVM chain ids, comma- or space-separated; empty: the server's default. */
  chains: string
  /** `embedded_wallet_config.mode`: server-wallets-only allows automatic recovery only. */
  walletMode: string
  requireRecoveryOnCreate: boolean
  recoveryOptions: string[]
  fundingEnabled: boolean
  fundingAmount: string
  fundingAsset: string
  fundingBridging: boolean
  /** One option a line, in the chooser's order: `METHOD [PROVIDER]` (e.g. `card moonpay`, `wallets`). */
  fundingOptions: string
  moonpayKey: string
  moonpaySandbox: boolean
  disablePlusEmails: boolean
  whatsappEnabled: boolean
  passkeySignup: boolean
  captchaSiteKey: string
}

type Obj = Record<string, unknown>
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {}
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const text = (value: unknown) => (typeof value === 'string' ? value : '')

export function moreFieldsOf(settings: Settings): MoreFields {
  const wallets = obj(settings.embedded_wallet_config)
  const funding = obj(settings.funding)
  const rejection = obj(settings.allowlist_config)
  return {
    allowlistEntries: list(obj(settings.allowlist).entries)
      .map((entry) => `${obj(entry).type} ${obj(entry).value}`)
      .join('\n'),
    allowlistErrorTitle: text(rejection.error_title),
    allowlistErrorDetail: text(rejection.error_detail),
    allowlistErrorCtaText: text(rejection.error_cta_text),
    allowlistErrorCtaLink: text(rejection.error_cta_link),
    chains: list(settings.chains).join(', '),
    walletMode: text(wallets.mode) || WALLET_MODES[0],
    requireRecoveryOnCreate: wallets.require_user_owned_recovery_on_create === true,
    // The server offers passcode recovery when the setting is absent (apps/service.ts):
    // shown ticked, so saving other wallet keys does not turn it off unseen.
    recoveryOptions:
      wallets.user_owned_recovery_options === undefined
        ? ['user-passcode']
        : list(wallets.user_owned_recovery_options).map(String),
    fundingEnabled: funding.enabled !== false,
    fundingAmount:
      typeof funding.default_recommended_amount === 'string'
        ? funding.default_recommended_amount
        : '',
    fundingAsset:
      typeof funding.default_recommended_asset === 'string'
        ? funding.default_recommended_asset
        : 'native-currency',
    fundingBridging: funding.cross_chain_bridging_enabled === true,
    fundingOptions: list(funding.options)
      .map((o) => [obj(o).method, obj(o).provider].filter(Boolean).join(' '))
      .join('\n'),
    moonpayKey: text(obj(funding.moonpay).publishable_key),
    moonpaySandbox: obj(funding.moonpay).sandbox === true,
    disablePlusEmails: settings.disable_plus_emails === true,
    whatsappEnabled: settings.whatsapp_enabled === true,
    passkeySignup: settings.passkeys_for_signup_enabled === true,
    captchaSiteKey: typeof settings.captcha_site_key === 'string' ? settings.captcha_site_key : '',
  }
}

/** `TYPE VALUE` lines as allowlist entries; a line without a space is `{ type: line, value: '' }`, which the server refuses by name. */
export function entriesOf(text: string): Array<{ type: string; value: string }> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const space = line.search(/\s/)
      return space < 0
        ? { type: line, value: '' }
        : { type: line.slice(0, space), value: line.slice(space).trim() }
    })
}

/** `METHOD [PROVIDER]` lines as funding options (provider null when a line has none). */
export function fundingOptionsOf(text: string): Array<{ method: string; provider: string | null }> {
  return entriesOf(text).map(({ type, value }) => ({ method: type, provider: value || null }))
}

/** Chain ids as numbers; a part that is not an integer stays as text for the server to refuse. */
export function chainsOf(text: string): Array<number | string> {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part))
}

/** The patch that makes `settings` show `fields`: only what changed. */
export function morePatchOf(fields: MoreFields, settings: Settings): Settings {
  const before = moreFieldsOf(settings)
  const changed = (...keys: Array<keyof MoreFields>) =>
    keys.some((key) => JSON.stringify(fields[key]) !== JSON.stringify(before[key]))
  const patch: Settings = {}
  if (changed('allowlistEntries'))
    patch.allowlist = { ...obj(settings.allowlist), entries: entriesOf(fields.allowlistEntries) }
  const texts = ALLOWLIST_TEXTS.map(([field]) => field)
  if (changed(...texts)) patch.allowlist_config = allowlistConfigOf(fields, settings)
  if (changed('chains')) patch.chains = fields.chains.trim() ? chainsOf(fields.chains) : null
  if (changed('walletMode', 'requireRecoveryOnCreate', 'recoveryOptions')) {
    const wallets: Obj = { ...obj(settings.embedded_wallet_config) }
    if (changed('walletMode')) wallets.mode = fields.walletMode
    if (changed('requireRecoveryOnCreate', 'recoveryOptions')) {
      wallets.require_user_owned_recovery_on_create = fields.requireRecoveryOnCreate
      wallets.user_owned_recovery_options = fields.recoveryOptions
    }
    patch.embedded_wallet_config = wallets
  }
  const fundingKeys: Array<keyof MoreFields> = [
    'fundingEnabled',
    'fundingAmount',
    'fundingAsset',
    'fundingBridging',
    'fundingOptions',
    'moonpayKey',
    'moonpaySandbox',
  ]
  if (changed(...fundingKeys)) patch.funding = fundingPatch(fields, obj(settings.funding))
  if (changed('disablePlusEmails')) patch.disable_plus_emails = fields.disablePlusEmails
  if (changed('whatsappEnabled')) patch.whatsapp_enabled = fields.whatsappEnabled
  if (changed('passkeySignup')) patch.passkeys_for_signup_enabled = fields.passkeySignup
  if (changed('captchaSiteKey'))
    patch.captcha_site_key = fields.captchaSiteKey.trim() ? fields.captchaSiteKey.trim() : null
  return patch
}

/**
 * `settings.allowlist_config` as the text fields show it, keeping keys they do
 * not cover; an emptied field drops its key, and with none left the setting
 * goes (null).
 */
function allowlistConfigOf(fields: MoreFields, settings: Settings): Obj | null {
  const config: Obj = { ...obj(settings.allowlist_config) }
  for (const [field, key] of ALLOWLIST_TEXTS) {
    const value = fields[field].trim()
    if (value) config[key] = value
    else delete config[key]
  }
  return Object.keys(config).length > 0 ? config : null
}

/** `settings.funding` as the fields show it, keeping the keys they do not cover. */
function fundingPatch(fields: MoreFields, before: Obj): Obj {
  const funding: Obj = {
    ...before,
    enabled: fields.fundingEnabled,
    default_recommended_asset: fields.fundingAsset,
    cross_chain_bridging_enabled: fields.fundingBridging,
  }
  const amount = fields.fundingAmount.trim()
  if (amount) funding.default_recommended_amount = amount
  else delete funding.default_recommended_amount
  if (fields.fundingOptions.trim()) funding.options = fundingOptionsOf(fields.fundingOptions)
  else delete funding.options
  const key = fields.moonpayKey.trim()
  if (key) funding.moonpay = { publishable_key: key, sandbox: fields.moonpaySandbox }
  else delete funding.moonpay
  return funding
}
