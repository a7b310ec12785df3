import { OAUTH_PROVIDERS, type OAuthProvider } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { KeyPurpose, SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'

/*
 * Per-app provider credentials (docs/server.md "Cloud recovery"): the OAuth
 * client an app registered at Google for Drive backups, the CloudKit
 * container and API token for iCloud backups; later the login OAuth
 * providers. The secret half (`client_secret` column: the Google client
 * secret, the CloudKit API token) is sealed with AES-256-GCM under its own
 * HKDF purpose, with associated data binding app id, provider and column, so
 * a blob copied to another app or provider fails to open. Nothing here logs
 * a credential, and error messages never carry one.
 */

/** HKDF purpose of the sealed column. */
export const PROVIDER_CREDENTIALS_PURPOSE: KeyPurpose = 'provider-credentials'

/** Printable ASCII without spaces (client ids and secrets go into form bodies, URL-encoded). */
const token = (what: string, max: number) =>
  z
    .string()
    .max(max, `${what} is too long`)
    .regex(/^[\x21-\x7e]+$/, `${what} must be printable ASCII without spaces`)

/**
 * A CDP secret API key's private half: an EC key in PEM (ES256) or an Ed25519
 * key as base64 of 64 bytes (seed then public key; EdDSA), as the CDP portal
 * shows them (funding/coinbase-jwt.ts reads both).
 */
const cdpKeySecretSchema = z
  .string()
  .max(4096, 'api_key_secret is too long')
  .refine(
    (value) =>
      /^-----BEGIN (EC )?PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+-----END (EC )?PRIVATE KEY-----\n?$/.test(
        value.trim().concat('\n'),
      ) || /^[A-Za-z0-9+/]{86}==$/.test(value.trim()),
    'api_key_secret must be the CDP key secret: an EC private key (PEM) or an Ed25519 key (base64)',
  )

/** What an app configures per provider; `api_token` is not secret (CloudKit JS ships it) but is sealed too. */
export const providerCredentialsSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('google-drive'),
    client_id: token('client_id', 512),
    client_secret: token('client_secret', 512),
  }),
  z.object({
    provider: z.literal('icloud'),
    // Goes into CloudKit URL paths: a strict alphabet, e.g. iCloud.com.example.app.
    container_id: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/,
        'container_id must look like iCloud.com.example.app',
      ),
    environment: z.enum(['development', 'production']),
    api_token: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{1,200}$/, 'api_token must be 1–200 URL-safe characters'),
  }),
  z.object({
    provider: z.literal('telegram'),
    // BotFather's token: `<bot id>:<secret>`; the bot id is public, the rest signs logins.
    bot_token: z
      .string()
      .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'bot_token must look like 123456:ABC-DEF…'),
    bot_name: z.string().regex(/^[A-Za-z0-9_]{3,64}$/, 'bot_name must be the bot username'),
  }),
  // Cloudflare Turnstile (docs/captcha.md): the secret key siteverify is called with.
  z.object({
    provider: z.literal('turnstile'),
    secret_key: token('secret_key', 512),
  }),
  // MoonPay (docs/funding.md): the secret key widget URLs are signed with.
  z.object({
    provider: z.literal('moonpay'),
    secret_key: z
      .string()
      .regex(
        /^sk_(test|live)_[A-Za-z0-9]{1,256}$/,
        'secret_key must look like sk_live_… or sk_test_…',
      ),
  }),
  // Coinbase Onramp (docs/funding.md): a CDP secret API key (its name or id, and its private key).
  z.object({
    provider: z.literal('coinbase-onramp'),
    api_key_name: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9/_-]{0,255}$/,
        'api_key_name must be the CDP key id or organizations/…/apiKeys/… name',
      ),
    api_key_secret: cdpKeySecretSchema,
  }),
  // Farcaster signer (docs/farcaster-signer.md): the app's requesting FID and its custody key
  // (a 0x private key or a BIP-39 mnemonic), which signs the SignedKeyRequest.
  z.object({
    provider: z.literal('farcaster-signer'),
    request_fid: z
      .string()
      .regex(/^[1-9]\d{0,19}$/, "request_fid must be the app's fid (a number)"),
    custody_key: z
      .string()
      .max(1024, 'custody_key is too long')
      .refine(
        (value) =>
          /^0x[0-9a-fA-F]{64}$/.test(value.trim()) || /^[a-z]+( [a-z]+){11,23}$/.test(value.trim()),
        'custody_key must be a 0x private key (64 hex digits) or a 12–24 word mnemonic',
      ),
  }),
  // OAuth login (docs/login-oauth.md): the app's client at the provider (TikTok: client key).
  z.object({
    provider: z.enum(OAUTH_PROVIDERS),
    client_id: token('client_id', 512),
    client_secret: token('client_secret', 4096),
  }),
])

/**
 * Credentials of one provider for one app.
 *
 * @example
 * const google: ProviderCredentials = { provider: 'google-drive', client_id: '…apps.googleusercontent.com', client_secret: '…' }
 * const icloud: ProviderCredentials = { provider: 'icloud', container_id: 'iCloud.com.example.app', environment: 'production', api_token: '…' }
 */
export type ProviderCredentials = z.infer<typeof providerCredentialsSchema>
/** Providers an app can hold credentials for. */
export type CredentialProvider = ProviderCredentials['provider']
export const credentialProviders: readonly CredentialProvider[] = [
  'google-drive',
  'icloud',
  'telegram',
  'turnstile',
  'moonpay',
  'coinbase-onramp',
  'farcaster-signer',
  ...OAUTH_PROVIDERS,
]

export const isCredentialProvider = (value: string): value is CredentialProvider =>
  (credentialProviders as readonly string[]).includes(value)

/** What the credential functions need: the database and the master-key box. */
export interface CredentialStore {
  db: Kysely<Database>
  secrets: SecretBox
  /** Clock in epoch ms (default Date.now). */
  now?: () => number
}

/** Associated data of a sealed credential: the row (app, provider) and the column. */
export const providerCredentialAad = (
  appId: string,
  provider: string,
  column: 'client_secret',
): string => JSON.stringify(['app_provider_credentials', appId, provider, column])

const icloudSettingsSchema = z.object({
  container_id: z.string(),
  environment: z.enum(['development', 'production']),
})

/** The columns of a row; only `client_secret` holds a secret, sealed. */
function toColumns(store: CredentialStore, appId: string, credentials: ProviderCredentials) {
  const seal = (value: string) =>
    store.secrets.encrypt(
      PROVIDER_CREDENTIALS_PURPOSE,
      providerCredentialAad(appId, credentials.provider, 'client_secret'),
      value,
    )
  switch (credentials.provider) {
    case 'google-drive':
      return {
        client_id: credentials.client_id,
        client_secret: seal(credentials.client_secret),
        settings: '{}',
      }
    case 'google':
    case 'apple':
    case 'discord':
    case 'github':
    case 'linkedin':
    case 'spotify':
    case 'instagram':
    case 'twitter':
    case 'tiktok':
    case 'line':
      return {
        client_id: credentials.client_id,
        client_secret: seal(credentials.client_secret),
        settings: '{}',
      }
    case 'telegram':
      return {
        client_id: credentials.bot_name,
        client_secret: seal(credentials.bot_token),
        settings: '{}',
      }
    case 'turnstile':
    case 'moonpay':
      return { client_id: null, client_secret: seal(credentials.secret_key), settings: '{}' }
    case 'coinbase-onramp':
      return {
        client_id: credentials.api_key_name,
        client_secret: seal(credentials.api_key_secret),
        settings: '{}',
      }
    case 'farcaster-signer':
      return {
        client_id: credentials.request_fid,
        client_secret: seal(credentials.custody_key.trim()),
        settings: '{}',
      }
    case 'icloud':
      return {
        client_id: null,
        client_secret: seal(credentials.api_token),
        settings: JSON.stringify({
          container_id: credentials.container_id,
          environment: credentials.environment,
        }),
      }
  }
}

/**
 * Sets (creates or replaces) an app's credentials for one provider. The
 * input is validated first; an invalid one throws an Error naming the field,
 * never its value. Callers that serve requests must forget the app in their
 * cache afterwards (`LatchkeyServer.setAppProviderCredentials` does).
 *
 * @example
 * await setAppProviderCredentials({ db, secrets }, appId, {
 *   provider: 'google-drive', client_id: process.env.GOOGLE_CLIENT_ID, client_secret: process.env.GOOGLE_CLIENT_SECRET,
 * })
 */
export async function setAppProviderCredentials(
  store: CredentialStore,
  appId: string,
  credentials: ProviderCredentials,
): Promise<void> {
  const parsed = providerCredentialsSchema.safeParse(credentials)
  if (!parsed.success)
    throw new Error(
      `Invalid ${String((credentials as { provider?: unknown })?.provider)} credentials: ${parsed.error.issues
        .map((i) => `${i.path.join('.') || 'provider'}: ${i.message}`)
        .join('; ')}`,
    )
  const app = await store.db
    .selectFrom('apps')
    .select('id')
    .where('id', '=', appId)
    .executeTakeFirst()
  if (!app) throw new Error(`No app with id ${appId}`)
  const now = (store.now ?? Date.now)()
  const columns = toColumns(store, appId, parsed.data)
  await store.db
    .insertInto('app_provider_credentials')
    .values({
      app_id: appId,
      provider: parsed.data.provider,
      ...columns,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['app_id', 'provider']).doUpdateSet({ ...columns, updated_at: now }),
    )
    .execute()
}

/**
 * An app's credentials for a provider, unsealed; undefined when none are set.
 * A sealed blob that fails to open (tampered, moved to another app or
 * provider, other master key) throws an Error that names the app and provider
 * only.
 */
export async function getAppProviderCredentials<P extends CredentialProvider>(
  store: CredentialStore,
  appId: string,
  provider: P,
): Promise<Extract<ProviderCredentials, { provider: P }> | undefined> {
  const row = await store.db
    .selectFrom('app_provider_credentials')
    .selectAll()
    .where('app_id', '=', appId)
    .where('provider', '=', provider)
    .executeTakeFirst()
  if (!row) return undefined
  const unreadable = () =>
    new Error(
      `provider credentials of app ${appId} (${provider}) failed to unseal: tampered, moved or wrong master key`,
    )
  if (row.client_secret === null) throw unreadable()
  let secret: string
  try {
    secret = store.secrets
      .decrypt(
        PROVIDER_CREDENTIALS_PURPOSE,
        providerCredentialAad(appId, provider, 'client_secret'),
        row.client_secret,
      )
      .toString('utf8')
  } catch {
    throw unreadable()
  }
  let credentials: ProviderCredentials
  if ((OAUTH_PROVIDERS as readonly string[]).includes(provider)) {
    if (row.client_id === null) throw unreadable()
    credentials = {
      provider: provider as OAuthProvider,
      client_id: row.client_id,
      client_secret: secret,
    }
  } else if (provider === 'telegram') {
    if (row.client_id === null) throw unreadable()
    credentials = { provider, bot_token: secret, bot_name: row.client_id }
  } else if (provider === 'turnstile' || provider === 'moonpay') {
    credentials = { provider, secret_key: secret }
  } else if (provider === 'coinbase-onramp') {
    if (row.client_id === null) throw unreadable()
    credentials = { provider, api_key_name: row.client_id, api_key_secret: secret }
  } else if (provider === 'farcaster-signer') {
    if (row.client_id === null) throw unreadable()
    credentials = { provider, request_fid: row.client_id, custody_key: secret }
  } else if (provider === 'google-drive') {
    if (row.client_id === null) throw unreadable()
    credentials = { provider, client_id: row.client_id, client_secret: secret }
  } else {
    const settings = icloudSettingsSchema.parse(JSON.parse(row.settings))
    credentials = { provider: 'icloud', ...settings, api_token: secret }
  }
  return credentials as Extract<ProviderCredentials, { provider: P }>
}

/** Deletes an app's credentials for a provider; true when there were some. */
export async function deleteAppProviderCredentials(
  store: Pick<CredentialStore, 'db'>,
  appId: string,
  provider: CredentialProvider,
): Promise<boolean> {
  const result = await store.db
    .deleteFrom('app_provider_credentials')
    .where('app_id', '=', appId)
    .where('provider', '=', provider)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** The providers each of `appIds` has credentials for (one query, no unsealing). */
export async function configuredProvidersOf(
  db: Kysely<Database>,
  appIds: readonly string[],
): Promise<Map<string, CredentialProvider[]>> {
  const byApp = new Map<string, CredentialProvider[]>(appIds.map((id) => [id, []]))
  if (appIds.length === 0) return byApp
  const rows = await db
    .selectFrom('app_provider_credentials')
    .select(['app_id', 'provider'])
    .where('app_id', 'in', [...appIds])
    .orderBy('provider')
    .execute()
  for (const row of rows)
    if (isCredentialProvider(row.provider)) byApp.get(row.app_id)?.push(row.provider)
  return byApp
}
