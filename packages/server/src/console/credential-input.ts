import { OAUTH_PROVIDERS } from '@latchkey/protocol'
import { z } from 'zod'
import {
  type CredentialProvider,
  type CredentialStore,
  credentialProviders,
  getAppProviderCredentials,
  type ProviderCredentials,
} from '../apps/credentials.ts'
import { ApiError } from '../errors.ts'

// What the console's credentials route (credential-routes.ts) reads and takes
// for every provider `latchkey apps credentials set` knows: the body of a
// change (its secret optional: none keeps the stored one), the credentials it
// stores, and the public half an answer may carry. The values themselves are
// validated by apps/credentials.ts, as the CLI's are, whose messages name the
// field and never the value.

/** The secret (sealed, write-only) field of each provider's credentials. */
const SECRET_FIELD = {
  'google-drive': 'client_secret',
  icloud: 'api_token',
  telegram: 'bot_token',
  turnstile: 'secret_key',
  moonpay: 'secret_key',
  'coinbase-onramp': 'api_key_secret',
  'farcaster-signer': 'custody_key',
  ...Object.fromEntries(OAUTH_PROVIDERS.map((p) => [p, 'client_secret'])),
} as Record<CredentialProvider, string>

/** What a provider's credentials are called in a message ("the app has no … yet"). */
const NOUN: Partial<Record<CredentialProvider, string>> = {
  'google-drive': 'Google Drive client',
  icloud: 'iCloud API token',
  telegram: 'Telegram bot',
  turnstile: 'Turnstile secret key',
  moonpay: 'MoonPay secret key',
  'coinbase-onramp': 'Coinbase Onramp API key',
  'farcaster-signer': 'Farcaster custody key',
}

// Shapes and sizes only; the values are checked by providerCredentialsSchema when stored.
const secret = (max: number) => z.string().max(max).optional()
const publicText = (max: number) => z.string().max(max)

/** The body of a change: one provider's credentials, the secret optional. */
export const credentialBody = z.discriminatedUnion('provider', [
  z.strictObject({
    provider: z.enum([...OAUTH_PROVIDERS, 'google-drive']),
    client_id: publicText(512),
    client_secret: secret(4096),
  }),
  z.strictObject({
    provider: z.literal('telegram'),
    bot_name: publicText(64),
    bot_token: secret(200),
  }),
  z.strictObject({
    provider: z.literal('icloud'),
    container_id: publicText(200),
    environment: z.enum(['development', 'production']),
    api_token: secret(200),
  }),
  z.strictObject({
    provider: z.enum(['turnstile', 'moonpay']),
    secret_key: secret(512),
  }),
  z.strictObject({
    provider: z.literal('coinbase-onramp'),
    api_key_name: publicText(256),
    api_key_secret: secret(4096),
  }),
  z.strictObject({
    provider: z.literal('farcaster-signer'),
    request_fid: publicText(20),
    custody_key: secret(1024),
  }),
])
export type CredentialBody = z.infer<typeof credentialBody>

/** The body of a removal. */
export const credentialDeleteBody = z.strictObject({
  provider: z.enum(credentialProviders as [CredentialProvider, ...CredentialProvider[]]),
})

/** Whether the body carries a new secret. */
export const secretOf = (body: CredentialBody): string | undefined =>
  (body as Record<string, string | undefined>)[SECRET_FIELD[body.provider]] || undefined

/** A secret as the CLI reads one: trimmed; a PEM kept on one line has `\n` for its newlines. */
const normalized = (provider: CredentialProvider, value: string) =>
  (provider === 'coinbase-onramp' ? value.replace(/\\n/g, '\n') : value).trim()

/**
 * The credentials to store: the body, its missing secret taken from the stored
 * ones. None typed and none stored is a 400 naming the field.
 */
export async function completedCredentials(
  store: CredentialStore,
  appId: string,
  body: CredentialBody,
): Promise<ProviderCredentials> {
  const field = SECRET_FIELD[body.provider]
  const typed = secretOf(body)
  const value = typed
    ? normalized(body.provider, typed)
    : (
        (await getAppProviderCredentials(store, appId, body.provider)) as
          | Record<string, string>
          | undefined
      )?.[field]
  if (!value) {
    const noun = NOUN[body.provider] ?? `${body.provider} client`
    throw new ApiError('INVALID_PAYLOAD', `${field} is needed: the app has no ${noun} yet`)
  }
  // Validated when stored (setAppProviderCredentials), as the CLI's are.
  return { ...body, [field]: value } as ProviderCredentials
}

/** The public half of a stored credential: never a secret, only what names it. */
export type CredentialPublicHalf = { provider: CredentialProvider } & Partial<
  Record<
    'client_id' | 'bot_name' | 'container_id' | 'environment' | 'api_key_name' | 'request_fid',
    string
  >
>

/** A row's public half, read from its unsealed columns only (client_id, settings). */
export function publicHalfOf(row: {
  provider: CredentialProvider
  client_id: string | null
  settings: string
}): CredentialPublicHalf {
  const { provider } = row
  const id = row.client_id ?? ''
  switch (provider) {
    case 'telegram':
      return { provider, bot_name: id }
    case 'turnstile':
    case 'moonpay':
      return { provider }
    case 'coinbase-onramp':
      return { provider, api_key_name: id }
    case 'farcaster-signer':
      return { provider, request_fid: id }
    case 'icloud': {
      const settings = JSON.parse(row.settings || '{}') as Record<string, unknown>
      return {
        provider,
        container_id: String(settings.container_id ?? ''),
        environment: String(settings.environment ?? ''),
      }
    }
    default:
      return { provider, client_id: id }
  }
}

/** The public half of the credentials just stored. */
export const publicHalfOfBody = (body: CredentialBody): CredentialPublicHalf => {
  const { [SECRET_FIELD[body.provider]]: _secret, ...rest } = body as Record<string, string>
  return rest as CredentialPublicHalf
}
