import type { AppConfig, LoginMethodSwitches } from '@latchkey/protocol'
import {
  DEFAULT_ACCENT_COLOR,
  DEFAULT_LOGIN_METHOD_SWITCHES,
  isValidAppId,
  OAUTH_PROVIDERS,
} from '@latchkey/protocol'
import type { Kysely, Selectable } from 'kysely'
import { captchaProviderOf } from '../captcha/provider.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { AppsTable, Database } from '../db/types.ts'
import { defaultFundingOptions, type FundingServerOptions } from '../funding/options.ts'
import { toFundingConfig } from '../funding/settings.ts'
import { newAppId, newSecret, sha256 } from '../ids.ts'
import { toSmartWalletConfig } from '../smart-wallets/settings.ts'
import { APP_SECRET_PREFIX, matchAppSecret } from './app-secrets.ts'
import { type CredentialProvider, configuredProvidersOf } from './credentials.ts'
import { APP_SETTING_KEYS, type AppSettings, buildSettings } from './settings.ts'

export type { AppSettings } from './settings.ts'

export interface AppRecord {
  id: string
  name: string
  allowedOrigins: string[]
  settings: AppSettings
  createdAt: number
  /** Providers the app has credentials for (apps/credentials.ts); cloud recovery needs them. */
  configuredProviders: CredentialProvider[]
}

export interface CreateAppInput {
  name: string
  origins: string[]
  /** A chosen id (25 lowercase alphanumerics); random by default. */
  id?: string
  logoUrl?: string | null
  accentColor?: string | null
  settings?: AppSettings
  now?: number
}

export interface CreateAppResult {
  app: AppRecord
  /** Shown once; only its SHA-256 is stored. */
  secret: string
}

/** `https://a.example` from `https://a.example/` — exact origins only (no path, query, wildcard). */
export function normalizeOrigin(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error(`Not an origin: ${value}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`Origins must be http(s): ${value}`)
  if (
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  )
    throw new Error(`An origin has no path, query or credentials: ${value}`)
  return url.origin
}

/** An app from its row and the providers it has credentials for. */
export function rowToApp(
  row: Selectable<AppsTable>,
  configuredProviders: CredentialProvider[],
): AppRecord {
  return {
    id: row.id,
    name: row.name,
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    settings: JSON.parse(row.settings) as AppSettings,
    createdAt: Number(row.created_at),
    configuredProviders,
  }
}

/**
 * Creates an app: a CSPRNG id (25 lowercase alphanumerics) and a secret that
 * is returned once and stored only hashed.
 *
 * @example
 * const { app, secret } = await createApp(db, { name: 'Demo', origins: ['http://localhost:5173'] })
 */
export async function createApp(
  db: Kysely<Database>,
  input: CreateAppInput,
): Promise<CreateAppResult> {
  const id = input.id ?? newAppId()
  if (!isValidAppId(id)) throw new Error('An app id is 25 lowercase letters and digits')
  if (!input.name.trim()) throw new Error('An app needs a name')
  const origins = [...new Set(input.origins.map(normalizeOrigin))]
  // The app's first secret (apps/app-secrets.ts), in the same form as the CLI's later ones.
  const secret = `${APP_SECRET_PREFIX}${newSecret()}`
  const createdAt = input.now ?? Date.now()
  const settings = buildSettings(input)
  await db
    .insertInto('apps')
    .values({
      id,
      name: input.name.trim(),
      secret_hash: sha256(secret),
      allowed_origins: JSON.stringify(origins),
      settings: JSON.stringify(settings),
      created_at: createdAt,
    })
    .execute()
  return {
    app: {
      id,
      name: input.name.trim(),
      allowedOrigins: origins,
      settings,
      createdAt,
      configuredProviders: [],
    },
    secret,
  }
}

export interface EnsureAppResult {
  app: AppRecord
  created: boolean
  /** Present only when the app was created by this call. */
  secret?: string
}

/**
 * Idempotent upsert by id (used to provision the demo app on `npm start`):
 * creates the app, or updates its name, origins and the given settings,
 * keeping its secret.
 */
export async function ensureApp(
  db: Kysely<Database>,
  input: CreateAppInput & { id: string },
): Promise<EnsureAppResult> {
  const existing = await getAppById(db, input.id)
  if (!existing) {
    try {
      const { app, secret } = await createApp(db, input)
      return { app, created: true, secret }
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
    }
  }
  const current = existing ?? (await getAppById(db, input.id))
  if (!current) throw new Error(`App ${input.id} vanished during ensure`)
  const origins = [...new Set(input.origins.map(normalizeOrigin))]
  const settings = { ...current.settings, ...buildSettings(input) }
  await db
    .updateTable('apps')
    .set({
      name: input.name.trim(),
      allowed_origins: JSON.stringify(origins),
      settings: JSON.stringify(settings),
    })
    .where('id', '=', input.id)
    .execute()
  return {
    app: { ...current, name: input.name.trim(), allowedOrigins: origins, settings },
    created: false,
  }
}

/**
 * Merges `patch` into the app's settings (top-level keys replace; `null`
 * removes a key), validated like app creation. A running server applies the
 * change when its app cache expires (a few seconds).
 */
export async function updateAppSettings(
  db: Kysely<Database>,
  id: string,
  patch: Record<string, unknown>,
): Promise<AppSettings> {
  const current = await getAppById(db, id)
  if (!current) throw new Error(`No app ${id}`)
  const removed = Object.keys(patch).filter((key) => patch[key] === null)
  const kept = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null))
  const unknown = Object.keys(patch).filter((key) => !APP_SETTING_KEYS.includes(key))
  if (unknown.length > 0) throw new Error(`Unknown app setting: ${unknown.join(', ')}`)
  const merged: Record<string, unknown> = { ...current.settings, ...kept }
  for (const key of removed) delete merged[key]
  const { accent_color, ...rest } = merged as AppSettings
  const settings = buildSettings({
    settings: rest,
    ...(accent_color !== undefined ? { accentColor: accent_color } : {}),
  })
  await db
    .updateTable('apps')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', id)
    .execute()
  return settings
}

export async function getAppById(db: Kysely<Database>, id: string): Promise<AppRecord | undefined> {
  const row = await db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) return undefined
  const providers = await configuredProvidersOf(db, [row.id])
  return rowToApp(row, providers.get(row.id) ?? [])
}

export async function listApps(db: Kysely<Database>): Promise<AppRecord[]> {
  const rows = await db.selectFrom('apps').selectAll().orderBy('created_at').execute()
  const providers = await configuredProvidersOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((row) => rowToApp(row, providers.get(row.id) ?? []))
}

/**
 * True when `secret` is one of the app's live secrets (apps/app-secrets.ts
 * `matchAppSecret`: constant time, revoked secrets refused; records the use).
 */
export async function verifyAppSecret(
  db: Kysely<Database>,
  appId: string,
  secret: string,
): Promise<boolean> {
  return (await matchAppSecret(db, appId, secret, Date.now())) !== null
}

type RecoveryOption = AppConfig['embedded_wallet_config']['user_owned_recovery_options'][number]

/**
 * The user-owned recovery methods an app offers AND can serve: a cloud method
 * (Google Drive, iCloud) counts only while the app has credentials for it.
 */
function usableRecoveryOptions(app: AppRecord, offered: RecoveryOption[]): RecoveryOption[] {
  return offered.filter(
    (method) => method === 'user-passcode' || app.configuredProviders.includes(method),
  )
}

/**
 * Merges an app's stored settings with the defaults into the wire config
 * (spec 01 §3). `funding`: the server's funding hosts (MoonPay's API, the
 * bridge), which `funding_config` names; default the real services.
 */
export function toAppConfig(
  app: AppRecord,
  funding: Pick<FundingServerOptions, 'moonpay' | 'bridge'> = defaultFundingOptions,
): AppConfig {
  const s = app.settings
  const login: LoginMethodSwitches = {
    ...DEFAULT_LOGIN_METHOD_SWITCHES,
    ...(s.login_methods ?? {}),
  }
  // An OAuth button shows only when the app has that provider's client (auth/oauth).
  for (const p of OAUTH_PROVIDERS) if (!app.configuredProviders.includes(p)) login[p] = false
  const wallet = s.embedded_wallet_config ?? {}
  // Spec 02 §5: server-wallet-only mode has automatic recovery only (wallets/recovery-policy.ts).
  const mode = wallet.mode ?? 'legacy-embedded-wallets-only'
  const userOwned = mode !== 'user-controlled-server-wallets-only'
  return {
    id: app.id,
    name: app.name,
    logo_url: s.logo_url ?? null,
    accent_color: s.accent_color ?? DEFAULT_ACCENT_COLOR,
    login_methods: login,
    terms_and_conditions_url: s.terms_and_conditions_url ?? null,
    privacy_policy_url: s.privacy_policy_url ?? null,
    require_users_accept_terms: s.require_users_accept_terms ?? false,
    disable_plus_emails: s.disable_plus_emails ?? false,
    passkeys_for_signup_enabled: s.passkeys_for_signup_enabled ?? false,
    captcha_enabled: s.captcha_enabled ?? false,
    // Turnstile needs the site key and the secret (a provider credential); else ALTCHA.
    captcha_site_key: captchaProviderOf(app) === 'turnstile' ? (s.captcha_site_key ?? null) : null,
    captcha_provider: captchaProviderOf(app),
    allowlist_config: {
      error_title: s.allowlist_config?.error_title ?? null,
      error_detail: s.allowlist_config?.error_detail ?? null,
      error_cta_text: s.allowlist_config?.error_cta_text ?? null,
      error_cta_link: s.allowlist_config?.error_cta_link ?? null,
    },
    embedded_wallet_config: {
      create_on_login: {
        ethereum: wallet.create_on_login?.ethereum ?? 'off',
        solana: wallet.create_on_login?.solana ?? 'off',
      },
      require_user_owned_recovery_on_create:
        userOwned && (wallet.require_user_owned_recovery_on_create ?? false),
      user_owned_recovery_options: userOwned
        ? usableRecoveryOptions(app, wallet.user_owned_recovery_options ?? ['user-passcode'])
        : [],
      mode,
    },
    funding_config: toFundingConfig(
      { funding: s.funding, configuredProviders: app.configuredProviders },
      funding,
    ),
    mfa_methods: s.mfa_methods ?? [],
    // Issue 24 (docs/smart-wallets.md): no bundler or paymaster URL reaches the browser.
    smart_wallet_config: toSmartWalletConfig(s.smart_wallets),
    telegram_auth_config:
      login.telegram && s.telegram_auth_config && app.configuredProviders.includes('telegram')
        ? {
            bot_id: s.telegram_auth_config.bot_id,
            bot_name: s.telegram_auth_config.bot_name,
            link_enabled: s.telegram_auth_config.link_enabled ?? true,
            seamless_auth_enabled: s.telegram_auth_config.seamless_auth_enabled ?? false,
          }
        : null,
    whatsapp_enabled: s.whatsapp_enabled ?? false,
  }
}
