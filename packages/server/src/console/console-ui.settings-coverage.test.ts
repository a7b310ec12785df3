import {
  appConfigSchema,
  crossAppSettingsSchema,
  loginMethodSwitchesSchema,
} from '@latchkey/protocol'
import { expect, it } from 'vitest'
import { moreFieldsOf } from '../../console/src/more-settings.ts'
import { RAW_ONLY_SETTINGS, SETTING_FIELDS } from '../../console/src/settings-coverage.ts'
import { fieldsOf } from '../../console/src/settings-form.ts'
import { signInFieldsOf } from '../../console/src/sign-in-settings.ts'
import { smartWalletFieldsOf } from '../../console/src/smart-wallets-settings.ts'
import { APP_SETTING_KEYS, type AppSettings } from '../apps/settings.ts'
import { customAuthSettingsSchema } from '../auth/custom-jwt/schema.ts'
import type { FundingSettings } from '../funding/settings.ts'
import type { SmartWalletSettings, SponsorshipPolicy } from '../smart-wallets/settings.ts'

// Every app setting the server accepts has a console form field, or is on the
// console's commented raw-only list (console/src/settings-coverage.ts). The
// keys come from the server: APP_SETTING_KEYS at the top, and inside each
// object setting the keys of the zod schema that validates it, or, for a
// setting typed by an interface only, a record tsc holds to every key of it.

/** All keys of `T`: tsc refuses a record that misses one (or names another). */
const keysOf = <T>(all: Record<keyof Required<T>, true>) => Object.keys(all)
type Nested<K extends keyof AppSettings> = NonNullable<AppSettings[K]>

const wallets = appConfigSchema.shape.embedded_wallet_config.shape
/** The object settings (dotted paths) and their keys; every other path is one field. */
const NESTED: Record<string, string[]> = {
  oauth: keysOf<Nested<'oauth'>>({ return_provider_tokens: true }),
  allowlist_config: Object.keys(appConfigSchema.shape.allowlist_config.shape),
  allowlist: keysOf<Nested<'allowlist'>>({ enabled: true, entries: true }),
  embedded_wallet_config: Object.keys(wallets),
  'embedded_wallet_config.create_on_login': Object.keys(wallets.create_on_login.shape),
  telegram_auth_config: keysOf<Nested<'telegram_auth_config'>>({
    bot_id: true,
    bot_name: true,
    link_enabled: true,
    seamless_auth_enabled: true,
  }),
  custom_auth: Object.keys(customAuthSettingsSchema.shape),
  funding: keysOf<FundingSettings>({
    enabled: true,
    options: true,
    default_recommended_amount: true,
    default_recommended_asset: true,
    cross_chain_bridging_enabled: true,
    moonpay: true,
  }),
  'funding.moonpay': keysOf<NonNullable<FundingSettings['moonpay']>>({
    publishable_key: true,
    sandbox: true,
  }),
  cross_app: Object.keys(crossAppSettingsSchema.shape),
  smart_wallets: keysOf<SmartWalletSettings>({
    enabled: true,
    type: true,
    chains: true,
    sponsorship_policy: true,
  }),
  'smart_wallets.sponsorship_policy': keysOf<SponsorshipPolicy>({
    contracts: true,
    max_operations_per_user_per_day: true,
    max_gas_cost_per_user_per_day: true,
  }),
}

/** The server's settings as dotted paths, down to the first that a form or the raw list names. */
function settingPaths(prefix: string, keys: readonly string[]): string[] {
  return keys.flatMap((key) => {
    const path = prefix ? `${prefix}.${key}` : key
    if (path in SETTING_FIELDS || path in RAW_ONLY_SETTINGS || !NESTED[path]) return [path]
    return settingPaths(path, NESTED[path])
  })
}
const serverPaths = settingPaths('', APP_SETTING_KEYS)

it('gives every setting the server accepts a form field, unless it is listed as raw-only', () => {
  const missing = serverPaths.filter((p) => !(p in SETTING_FIELDS) && !(p in RAW_ONLY_SETTINGS))
  expect(
    missing,
    'settings with no console field: add one, or list them in RAW_ONLY_SETTINGS',
  ).toEqual([])
})

it('names only settings the server has, each once, with a reason when raw-only', () => {
  const listed = [...Object.keys(SETTING_FIELDS), ...Object.keys(RAW_ONLY_SETTINGS)]
  expect(listed.filter((p) => !serverPaths.includes(p))).toEqual([])
  expect(Object.keys(SETTING_FIELDS).filter((p) => p in RAW_ONLY_SETTINGS)).toEqual([])
  for (const reason of Object.values(RAW_ONLY_SETTINGS)) expect(reason.trim()).not.toBe('')
})

it('points each setting at a field its form has, and login_methods at every switch', () => {
  const forms = {
    settings: fieldsOf({}),
    more: moreFieldsOf({}),
    'sign-in': signInFieldsOf({}, []),
    'smart-wallets': smartWalletFieldsOf({}),
  }
  for (const [path, [form, field]] of Object.entries(SETTING_FIELDS))
    expect(forms[form], `${path} → ${form}.${field}`).toHaveProperty(field)
  expect(Object.keys(forms.settings.loginMethods).sort()).toEqual(
    Object.keys(loginMethodSwitchesSchema.shape).sort(),
  )
})
