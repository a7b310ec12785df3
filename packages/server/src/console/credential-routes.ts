import { OAUTH_PROVIDERS } from '@latchkey/protocol'
import { z } from 'zod'
import {
  type CredentialStore,
  getAppProviderCredentials,
  type ProviderCredentials,
  setAppProviderCredentials,
} from '../apps/credentials.ts'
import { ApiError } from '../errors.ts'
import type { RouteDefinition } from '../http/route.ts'
import { recordAdminAction } from './audit.ts'
import { consoleAdminOf } from './guard.ts'
import { APP, anything, appOf, asInvalidPayload, consoleRoute } from './route-kit.ts'

// The sign-in providers' credentials in the console (docs/console.md "Sign-in
// providers"), as `latchkey apps credentials set ID PROVIDER` sets them: an
// OAuth client (id and secret) per provider, and the Telegram bot (username
// and token). The secret half is sealed at rest (apps/credentials.ts) and is
// write-only here: no answer carries it, only the public half and that one is
// set. A change without a secret keeps the stored one, so an admin can fix a
// client id without pasting the secret again.

const PATH = `${APP}/sign-in-credentials`

/** The providers whose credentials this route reads and sets. */
export const SIGN_IN_CREDENTIAL_PROVIDERS = [...OAUTH_PROVIDERS, 'telegram'] as const

const secret = (max: number) => z.string().max(max).optional()
const credentialBody = z.discriminatedUnion('provider', [
  z.strictObject({
    provider: z.enum(OAUTH_PROVIDERS),
    client_id: z.string().max(512),
    client_secret: secret(4096),
  }),
  z.strictObject({
    provider: z.literal('telegram'),
    bot_name: z.string().max(64),
    bot_token: secret(200),
  }),
])
type CredentialBody = z.infer<typeof credentialBody>

/** The public half of a stored credential: an OAuth client id, or the Telegram bot's username. */
export type SignInCredential =
  | { provider: (typeof OAUTH_PROVIDERS)[number]; client_id: string }
  | { provider: 'telegram'; bot_name: string }

const publicHalf = (provider: string, id: string): SignInCredential =>
  provider === 'telegram'
    ? { provider, bot_name: id }
    : { provider: provider as (typeof OAUTH_PROVIDERS)[number], client_id: id }

export const consoleSignInCredentialsRoute = consoleRoute({
  method: 'get',
  path: PATH,
  summary: "The app's sign-in provider credentials that are set: their public half, never a secret",
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    // The id column only: nothing is unsealed to answer.
    const rows = await services.db
      .selectFrom('app_provider_credentials')
      .select(['provider', 'client_id'])
      .where('app_id', '=', app.id)
      .where('provider', 'in', [...SIGN_IN_CREDENTIAL_PROVIDERS])
      .orderBy('provider')
      .execute()
    return { credentials: rows.map((row) => publicHalf(row.provider, row.client_id ?? '')) }
  },
})

/** The credentials to store: the body, its missing secret taken from the stored ones. */
async function completed(
  store: CredentialStore,
  appId: string,
  body: CredentialBody,
): Promise<ProviderCredentials> {
  if (body.provider === 'telegram') {
    const bot_token =
      body.bot_token || (await getAppProviderCredentials(store, appId, 'telegram'))?.bot_token
    if (!bot_token)
      throw new ApiError('INVALID_PAYLOAD', 'bot_token is needed: the app has no Telegram bot yet')
    return { provider: 'telegram', bot_name: body.bot_name, bot_token }
  }
  const client_secret =
    body.client_secret ||
    (await getAppProviderCredentials(store, appId, body.provider))?.client_secret
  if (!client_secret)
    throw new ApiError(
      'INVALID_PAYLOAD',
      `client_secret is needed: the app has no ${body.provider} client yet`,
    )
  return { provider: body.provider, client_id: body.client_id, client_secret }
}

export const consoleSignInCredentialSetRoute = consoleRoute({
  method: 'post',
  path: PATH,
  summary:
    "Set one sign-in provider's credentials (as `apps credentials set`); no secret keeps the stored one",
  body: credentialBody,
  response: anything,
  handler: async ({ c, services, body }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const credentials = await completed(services, app.id, body)
    // Its messages name the field, never the value (apps/credentials.ts).
    await setAppProviderCredentials(services, app.id, credentials).catch(asInvalidPayload)
    services.apps.invalidate(app.id)
    const secretChanged = Boolean(
      body.provider === 'telegram' ? body.bot_token : body.client_secret,
    )
    await recordAdminAction(
      services.db,
      consoleAdminOf(c).id,
      {
        action: 'app.credentials_set',
        appId: app.id,
        target: body.provider,
        detail: { secret_changed: secretChanged },
      },
      services.now(),
    )
    return publicHalf(body.provider, body.provider === 'telegram' ? body.bot_name : body.client_id)
  },
})

/** The sign-in credential routes, registered in routes.ts CONSOLE_ROUTES. */
export const CONSOLE_CREDENTIAL_ROUTES: RouteDefinition[] = [
  consoleSignInCredentialsRoute,
  consoleSignInCredentialSetRoute,
]
