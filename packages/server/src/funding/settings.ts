import {
  cardProviderSchema,
  type FundingConfig,
  type FundingOption,
  fundingMethodSchema,
} from '@latchkey/protocol'
import type { FundingServerOptions } from './options.ts'

/**
 * An app's funding settings (`settings.funding`, docs/funding.md "App
 * settings"). The secrets are provider credentials, not settings: MoonPay's
 * secret key (`moonpay`) and the Coinbase CDP key (`coinbase-onramp`).
 *
 * @example
 * { options: [{ method: 'card', provider: 'moonpay' }, { method: 'manual', provider: null }],
 *   default_recommended_amount: '0.05', moonpay: { publishable_key: 'pk_test_…', sandbox: true } }
 */
export interface FundingSettings {
  /** Off keeps the rest (default true). */
  enabled?: boolean
  /** What the chooser offers, in order. */
  options?: FundingOption[]
  /** A decimal string (default '0.01'). */
  default_recommended_amount?: string
  /** Default 'native-currency'. */
  default_recommended_asset?: 'native-currency' | 'USDC'
  /** Receive and wallet transfers may bridge from the other chain (default false). */
  cross_chain_bridging_enabled?: boolean
  /** MoonPay's publishable key (public: the widget carries it) and whether it is a sandbox key. */
  moonpay?: { publishable_key: string; sandbox?: boolean }
}

const DEFAULT_AMOUNT = '0.01'
const AMOUNT = /^\d{1,30}(\.\d{1,18})?$/
const KEYS = [
  'enabled',
  'options',
  'default_recommended_amount',
  'default_recommended_asset',
  'cross_chain_bridging_enabled',
  'moonpay',
]

/** Which provider each method may name (spec 03 §9 "Funding options allowed"). */
function isAllowedOption(option: FundingOption): boolean {
  switch (option.method) {
    case 'card':
      return option.provider !== null
    case 'exchange':
      return option.provider === 'coinbase'
    default:
      return option.provider === null
  }
}

/**
 * `settings.funding` as `apps settings --set` writes it: throws an Error
 * naming the field at fault (the CLI prints it).
 */
export function assertFundingSettings(value: unknown): asserts value is FundingSettings {
  const fail = (message: string): never => {
    throw new Error(`funding: ${message}`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('must be an object')
  const s = value as Record<string, unknown>
  const unknown = Object.keys(s).filter((k) => !KEYS.includes(k))
  if (unknown.length > 0) fail(`unknown key ${unknown.join(', ')} (known: ${KEYS.join(', ')})`)
  for (const key of ['enabled', 'cross_chain_bridging_enabled'])
    if (s[key] !== undefined && typeof s[key] !== 'boolean') fail(`${key} must be true or false`)
  if (s.options !== undefined) {
    if (!Array.isArray(s.options)) fail('options must be a list')
    const seen = new Set<string>()
    for (const option of s.options as unknown[]) {
      const o = option as Record<string, unknown> | null
      const method = fundingMethodSchema.safeParse(o?.method)
      const provider = o?.provider ?? null
      if (!method.success || (provider !== null && !cardProviderSchema.safeParse(provider).success))
        fail(
          'each option is { method: card|exchange|wallets|manual, provider: moonpay|coinbase|null }',
        )
      const checked = { method: method.data, provider } as FundingOption
      if (!isAllowedOption(checked))
        fail(
          'card needs provider moonpay or coinbase, exchange needs coinbase, wallets and manual need null',
        )
      const key = `${checked.method}/${checked.provider}`
      if (seen.has(key)) fail(`option ${key} is listed twice`)
      seen.add(key)
    }
  }
  if (
    s.default_recommended_amount !== undefined &&
    (typeof s.default_recommended_amount !== 'string' ||
      !AMOUNT.test(s.default_recommended_amount) ||
      Number(s.default_recommended_amount) <= 0)
  )
    fail("default_recommended_amount must be a decimal string above 0, e.g. '0.05'")
  if (
    s.default_recommended_asset !== undefined &&
    s.default_recommended_asset !== 'native-currency' &&
    s.default_recommended_asset !== 'USDC'
  )
    fail('default_recommended_asset must be native-currency or USDC')
  if (s.moonpay !== undefined) {
    const m = s.moonpay as Record<string, unknown> | null
    if (!m || typeof m !== 'object' || typeof m.publishable_key !== 'string')
      fail('moonpay must be { publishable_key, sandbox? }')
    const moonpay = m as Record<string, unknown>
    if (!/^pk_(test|live)_[A-Za-z0-9]{1,128}$/.test(moonpay.publishable_key as string))
      fail('moonpay.publishable_key must look like pk_live_… or pk_test_…')
    if (moonpay.sandbox !== undefined && typeof moonpay.sandbox !== 'boolean')
      fail('moonpay.sandbox must be true or false')
    if (Object.keys(moonpay).some((k) => k !== 'publishable_key' && k !== 'sandbox'))
      fail('moonpay has only publishable_key and sandbox')
  }
}

/** What {@link toFundingConfig} needs of an app: its settings and the providers it has keys for. */
export interface FundingApp {
  funding: FundingSettings | undefined
  /** Credential providers the app has (apps/credentials.ts). */
  configuredProviders: readonly string[]
}

/** True when the app can serve `option` now: a card or exchange option needs its provider's keys. */
export function isUsableOption(app: FundingApp, option: FundingOption): boolean {
  if (option.provider === 'moonpay')
    return app.configuredProviders.includes('moonpay') && app.funding?.moonpay !== undefined
  if (option.provider === 'coinbase') return app.configuredProviders.includes('coinbase-onramp')
  return true
}

/**
 * `funding_config` of `GET /api/v1/apps/:id` (spec 03 §2, §3): null when the
 * app has funding off or no option it can serve. An option whose provider
 * has no credentials is left out, as an OAuth button without its client is
 * (the chooser never offers what would fail).
 */
export function toFundingConfig(
  app: FundingApp,
  server: Pick<FundingServerOptions, 'moonpay' | 'bridge'>,
): FundingConfig | null {
  const s = app.funding
  if (!s || s.enabled === false) return null
  const options = (s.options ?? []).filter((option) => isUsableOption(app, option))
  if (options.length === 0) return null
  const moonpay = options.some((o) => o.provider === 'moonpay') ? s.moonpay : undefined
  const bridging = s.cross_chain_bridging_enabled ?? false
  return {
    options,
    default_recommended_amount: s.default_recommended_amount ?? DEFAULT_AMOUNT,
    default_recommended_asset: s.default_recommended_asset ?? 'native-currency',
    cross_chain_bridging_enabled: bridging && server.bridge !== null,
    moonpay: moonpay
      ? {
          publishable_key: moonpay.publishable_key,
          sandbox: moonpay.sandbox ?? false,
          api_url: server.moonpay.apiUrl,
        }
      : null,
    bridge:
      bridging && server.bridge
        ? { api_url: server.bridge.apiUrl, testnet_api_url: server.bridge.testnetApiUrl }
        : null,
  }
}
