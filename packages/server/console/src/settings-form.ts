import { DEFAULT_LOGIN_METHOD_SWITCHES } from '@latchkey/protocol/constants'
import type { Settings } from './api.ts'

// The common settings as form fields, and back into the patch the server
// merges (`apps settings --set`: top-level keys replace, null removes).

export const LOGIN_METHODS = Object.keys(DEFAULT_LOGIN_METHOD_SWITCHES)
export const MFA_METHODS = ['totp', 'sms', 'passkey'] as const
export const CREATE_ON_LOGIN = ['off', 'users-without-wallets', 'all-users'] as const

export interface SettingsFields {
  loginMethods: Record<string, boolean>
  logoUrl: string
  accentColor: string
  termsUrl: string
  privacyUrl: string
  requireTerms: boolean
  allowlistEnabled: boolean
  maxUsers: string
  mfaMethods: string[]
  createEthereum: string
  createSolana: string
  captchaEnabled: boolean
}

type Obj = Record<string, unknown>
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {}
const text = (value: unknown) => (typeof value === 'string' ? value : '')

export function fieldsOf(settings: Settings): SettingsFields {
  const switches = obj(settings.login_methods)
  const wallets = obj(obj(settings.embedded_wallet_config).create_on_login)
  return {
    loginMethods: Object.fromEntries(
      LOGIN_METHODS.map((m) => [
        m,
        typeof switches[m] === 'boolean'
          ? (switches[m] as boolean)
          : DEFAULT_LOGIN_METHOD_SWITCHES[m as keyof typeof DEFAULT_LOGIN_METHOD_SWITCHES],
      ]),
    ),
    logoUrl: text(settings.logo_url),
    accentColor: text(settings.accent_color),
    termsUrl: text(settings.terms_and_conditions_url),
    privacyUrl: text(settings.privacy_policy_url),
    requireTerms: settings.require_users_accept_terms === true,
    allowlistEnabled: obj(settings.allowlist).enabled === true,
    maxUsers: typeof settings.max_users === 'number' ? String(settings.max_users) : '',
    mfaMethods: Array.isArray(settings.mfa_methods) ? (settings.mfa_methods as string[]) : [],
    createEthereum: text(wallets.ethereum) || 'off',
    createSolana: text(wallets.solana) || 'off',
    captchaEnabled: settings.captcha_enabled === true,
  }
}

/**
 * The patch that makes `settings` show `fields`: only the settings whose
 * fields changed, so saving the form leaves the others as they were. An
 * empty text removes its key (null).
 */
export function patchOf(fields: SettingsFields, settings: Settings): Settings {
  const before = fieldsOf(settings)
  const changed = (...keys: Array<keyof SettingsFields>) =>
    keys.some((key) => JSON.stringify(fields[key]) !== JSON.stringify(before[key]))
  const orNull = (value: string) => (value.trim() === '' ? null : value.trim())
  const walletConfig = obj(settings.embedded_wallet_config)
  const patch: Settings = {}
  if (changed('loginMethods')) patch.login_methods = fields.loginMethods
  if (changed('logoUrl')) patch.logo_url = orNull(fields.logoUrl)
  if (changed('accentColor')) patch.accent_color = orNull(fields.accentColor)
  if (changed('termsUrl')) patch.terms_and_conditions_url = orNull(fields.termsUrl)
  if (changed('privacyUrl')) patch.privacy_policy_url = orNull(fields.privacyUrl)
  if (changed('requireTerms')) patch.require_users_accept_terms = fields.requireTerms
  if (changed('allowlistEnabled'))
    patch.allowlist = { entries: [], ...obj(settings.allowlist), enabled: fields.allowlistEnabled }
  if (changed('maxUsers'))
    patch.max_users = fields.maxUsers.trim() === '' ? null : Number(fields.maxUsers)
  if (changed('mfaMethods')) patch.mfa_methods = fields.mfaMethods
  if (changed('createEthereum', 'createSolana'))
    patch.embedded_wallet_config = {
      ...walletConfig,
      create_on_login: {
        ...obj(walletConfig.create_on_login),
        ethereum: fields.createEthereum,
        solana: fields.createSolana,
      },
    }
  if (changed('captchaEnabled')) patch.captcha_enabled = fields.captchaEnabled
  return patch
}

/**
 * The patch that turns `before` into the edited JSON: every key of it, and
 * null for each key it no longer has.
 */
export function rawPatch(before: Settings, edited: Settings): Settings {
  const removed = Object.keys(before).filter((key) => !(key in edited))
  return { ...edited, ...Object.fromEntries(removed.map((key) => [key, null])) }
}
