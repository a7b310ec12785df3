import {
  deleteAppProviderCredentials,
  isCredentialProvider,
  setAppProviderCredentials,
} from '../apps/credentials.ts'
import type { RouteDefinition } from '../http/route.ts'
import { recordAdminAction } from './audit.ts'
import {
  completedCredentials,
  credentialBody,
  credentialDeleteBody,
  publicHalfOf,
  publicHalfOfBody,
  secretOf,
} from './credential-input.ts'
import { consoleAdminOf } from './guard.ts'
import { APP, anything, appOf, asInvalidPayload, consoleRoute } from './route-kit.ts'

// The app's provider credentials in the console (docs/console.md "Sign-in
// providers", "Credentials"), as `latchkey apps credentials set|delete ID
// PROVIDER` handles them: OAuth clients, the Telegram bot, Google Drive and
// iCloud backups, Turnstile, MoonPay, Coinbase Onramp and the Farcaster
// signer. The secret half is sealed at rest (apps/credentials.ts) and is
// write-only here: no answer carries it, only the public half and that one is
// set. A change without a secret keeps the stored one, so an admin can fix a
// client id without pasting the secret again. Every change is audited.

const PATH = `${APP}/sign-in-credentials`

export const consoleSignInCredentialsRoute = consoleRoute({
  method: 'get',
  path: PATH,
  summary: "The app's provider credentials that are set: their public half, never a secret",
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    // The unsealed columns only: nothing is unsealed to answer.
    const rows = await services.db
      .selectFrom('app_provider_credentials')
      .select(['provider', 'client_id', 'settings'])
      .where('app_id', '=', app.id)
      .orderBy('provider')
      .execute()
    return {
      credentials: rows.flatMap((row) =>
        isCredentialProvider(row.provider)
          ? [publicHalfOf({ ...row, provider: row.provider })]
          : [],
      ),
    }
  },
})

export const consoleSignInCredentialSetRoute = consoleRoute({
  method: 'post',
  path: PATH,
  summary:
    "Set one provider's credentials (as `apps credentials set`); no secret keeps the stored one",
  body: credentialBody,
  response: anything,
  handler: async ({ c, services, body }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const credentials = await completedCredentials(services, app.id, body)
    // Its messages name the field, never the value (apps/credentials.ts).
    await setAppProviderCredentials(services, app.id, credentials).catch(asInvalidPayload)
    services.apps.invalidate(app.id)
    await recordAdminAction(
      services.db,
      consoleAdminOf(c).id,
      {
        action: 'app.credentials_set',
        appId: app.id,
        target: body.provider,
        detail: { secret_changed: secretOf(body) !== undefined },
      },
      services.now(),
    )
    return publicHalfOfBody(body)
  },
})

export const consoleCredentialDeleteRoute = consoleRoute({
  method: 'post',
  path: `${PATH}/delete`,
  summary: "Delete one provider's credentials (as `apps credentials delete`)",
  body: credentialDeleteBody,
  response: anything,
  handler: async ({ c, services, body }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const deleted = await deleteAppProviderCredentials(services, app.id, body.provider)
    services.apps.invalidate(app.id)
    // Nothing deleted is no change: nothing to audit.
    if (deleted)
      await recordAdminAction(
        services.db,
        consoleAdminOf(c).id,
        { action: 'app.credentials_deleted', appId: app.id, target: body.provider },
        services.now(),
      )
    return { deleted }
  },
})

/** The credential routes, registered in routes.ts CONSOLE_ROUTES. */
export const CONSOLE_CREDENTIAL_ROUTES: RouteDefinition[] = [
  consoleSignInCredentialsRoute,
  consoleSignInCredentialSetRoute,
  consoleCredentialDeleteRoute,
]
