import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'
import type { Settings, SignInCredential, SignInCredentialInput } from './api.ts'

// The sign-in providers' settings as form fields, and back: the settings patch
// Save merges (`oauth`, `custom_auth`, `cross_app`, `telegram_auth_config`,
// each whole and only when one of its fields changed) and the credentials it
// sets (an OAuth client, the Telegram bot) through the credentials route. The
// server validates both as the CLI does (apps/settings.ts, apps/credentials.ts),
// so a bad value shows its message. Secrets are write-only: an empty secret
// field keeps the stored one.

export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number]
export { OAUTH_PROVIDERS }

export interface OAuthClientFields {
  clientId: string
  /** Write-only: empty keeps the stored secret. */
  clientSecret: string
}

export interface SignInFields {
  oauth: Record<OAuthProviderName, OAuthClientFields>
  /** `oauth.return_provider_tokens`: authenticate answers carry the provider's tokens. */
  returnProviderTokens: boolean
  /** Where the custom JWT's signing keys are: a JWKS URL or one PEM public key. */
  customKey: 'jwks' | 'pem'
  jwksUrl: string
  publicKeyPem: string
  issuer: string
  audience: string
  /** Empty: `sub`. */
  subjectClaim: string
  crossAppEnabled: boolean
  crossAppReadOnly: boolean
  /** Requester app ids, one a line or comma-separated; empty: every app on the server. */
  crossAppRequesters: string
  crossAppUrl: string
  /** Empty: the digits before the bot token's colon. */
  telegramBotId: string
  telegramBotName: string
  /** Write-only: empty keeps the stored token. */
  telegramBotToken: string
  telegramLink: boolean
  telegramSeamless: boolean
}

type Obj = Record<string, unknown>
const obj = (value: unknown): Obj =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {}
const text = (value: unknown) => (typeof value === 'string' ? value : '')

/** Stored credentials by provider: the client id, or the Telegram bot's username. */
export function publicIdsOf(credentials: readonly SignInCredential[]): Map<string, string> {
  return new Map(
    credentials.map((c) => [c.provider, 'bot_name' in c ? c.bot_name : c.client_id] as const),
  )
}

export function signInFieldsOf(
  settings: Settings,
  credentials: readonly SignInCredential[],
): SignInFields {
  const ids = publicIdsOf(credentials)
  const custom = obj(settings.custom_auth)
  const crossApp = obj(settings.cross_app)
  const telegram = obj(settings.telegram_auth_config)
  const requesters = crossApp.allowed_requester_app_ids
  return {
    oauth: Object.fromEntries(
      OAUTH_PROVIDERS.map((p) => [p, { clientId: ids.get(p) ?? '', clientSecret: '' }]),
    ) as Record<OAuthProviderName, OAuthClientFields>,
    returnProviderTokens: obj(settings.oauth).return_provider_tokens === true,
    customKey: custom.public_key_pem !== undefined ? 'pem' : 'jwks',
    jwksUrl: text(custom.jwks_url),
    publicKeyPem: text(custom.public_key_pem),
    issuer: text(custom.issuer),
    audience: text(custom.audience),
    subjectClaim: text(custom.subject_claim),
    crossAppEnabled: crossApp.enabled === true,
    crossAppReadOnly: crossApp.read_only === true,
    crossAppRequesters: Array.isArray(requesters) ? requesters.map(String).join('\n') : '',
    crossAppUrl: text(crossApp.custom_api_url),
    telegramBotId: text(telegram.bot_id),
    telegramBotName: text(telegram.bot_name) || (ids.get('telegram') ?? ''),
    telegramBotToken: '',
    telegramLink: telegram.link_enabled !== false,
    telegramSeamless: telegram.seamless_auth_enabled === true,
  }
}

/** Ids from lines or commas; empty: none. */
export function idsOf(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean)
}

/** The bot id a BotFather token starts with (`123456:ABC…` → `123456`), or ''. */
export function botIdOf(token: string): string {
  return /^(\d{1,20}):/.exec(token.trim())?.[1] ?? ''
}

function customAuthOf(fields: SignInFields): Obj | null {
  const url = fields.jwksUrl.trim()
  const pem = fields.publicKeyPem.trim()
  const key = fields.customKey === 'pem' ? pem : url
  const issuer = fields.issuer.trim()
  const audience = fields.audience.trim()
  const claim = fields.subjectClaim.trim()
  // Nothing typed: custom-JWT login off.
  if (!url && !pem && !issuer && !audience && !claim) return null
  const customAuth: Obj = fields.customKey === 'pem' ? { public_key_pem: key } : { jwks_url: key }
  customAuth.issuer = issuer
  customAuth.audience = audience
  if (claim) customAuth.subject_claim = claim
  return customAuth
}

function crossAppOf(fields: SignInFields): Obj | null {
  const url = fields.crossAppUrl.trim()
  const requesters = idsOf(fields.crossAppRequesters)
  if (!fields.crossAppEnabled && !fields.crossAppReadOnly && !url && requesters.length === 0)
    return null
  const crossApp: Obj = {
    enabled: fields.crossAppEnabled,
    read_only: fields.crossAppReadOnly,
    custom_api_url: url,
  }
  if (requesters.length > 0) crossApp.allowed_requester_app_ids = requesters
  return crossApp
}

function telegramOf(fields: SignInFields): Obj | null {
  const botId = fields.telegramBotId.trim() || botIdOf(fields.telegramBotToken)
  const botName = fields.telegramBotName.trim()
  if (!botId && !botName) return null
  return {
    bot_id: botId,
    bot_name: botName,
    link_enabled: fields.telegramLink,
    seamless_auth_enabled: fields.telegramSeamless,
  }
}

/**
 * The settings patch that makes `settings` show `fields`: each of `oauth`,
 * `custom_auth`, `cross_app` and `telegram_auth_config` whole when one of its
 * fields changed (null when its fields were emptied), else nothing. A typed
 * secret alone changes no setting, except that a bot token fills an empty
 * bot id.
 *
 * @example
 * signInPatchOf({ ...fields, crossAppEnabled: true, crossAppUrl: 'https://p.example/x' }, settings, [])
 * // { cross_app: { enabled: true, read_only: false, custom_api_url: 'https://p.example/x' } }
 */
export function signInPatchOf(
  fields: SignInFields,
  settings: Settings,
  credentials: readonly SignInCredential[],
): Settings {
  const before = signInFieldsOf(settings, credentials)
  // Compared as the settings they make, so a field typed back to what it was sends nothing.
  const differs = (of: (f: SignInFields) => Obj | null) =>
    JSON.stringify(of(fields)) !== JSON.stringify(of(before))
  const patch: Settings = {}
  if (fields.returnProviderTokens !== before.returnProviderTokens)
    patch.oauth = { ...obj(settings.oauth), return_provider_tokens: fields.returnProviderTokens }
  if (differs(customAuthOf)) patch.custom_auth = customAuthOf(fields)
  if (differs(crossAppOf)) patch.cross_app = crossAppOf(fields)
  if (differs(telegramOf)) patch.telegram_auth_config = telegramOf(fields)
  return patch
}

/**
 * The credentials Save sets: an OAuth provider whose client id changed or
 * whose secret was typed, and the Telegram bot when its token was typed or
 * the username of a stored bot changed. A field left empty sends no secret,
 * which keeps the stored one; a provider with nothing stored and nothing
 * typed is left alone.
 */
export function credentialChangesOf(
  fields: SignInFields,
  credentials: readonly SignInCredential[],
): SignInCredentialInput[] {
  const ids = publicIdsOf(credentials)
  const changes: SignInCredentialInput[] = []
  for (const provider of OAUTH_PROVIDERS) {
    const { clientId, clientSecret } = fields.oauth[provider]
    const id = clientId.trim()
    if (!clientSecret && id === (ids.get(provider) ?? '')) continue
    changes.push(
      clientSecret
        ? { provider, client_id: id, client_secret: clientSecret.trim() }
        : { provider, client_id: id },
    )
  }
  const token = fields.telegramBotToken.trim()
  const botName = fields.telegramBotName.trim()
  const storedBot = ids.get('telegram')
  if (token) changes.push({ provider: 'telegram', bot_name: botName, bot_token: token })
  else if (storedBot !== undefined && botName !== storedBot)
    changes.push({ provider: 'telegram', bot_name: botName })
  return changes
}
