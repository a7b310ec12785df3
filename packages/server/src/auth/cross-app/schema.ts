/**
 * Wire schemas of cross-app login live in @latchkey/protocol
 * (schemas/cross-app.ts); re-exported next to the routes, as every login
 * method does.
 */
import { type CrossAppSettings, crossAppSettingsSchema } from '@latchkey/protocol'

export {
  crossAppAuthenticateRequestSchema,
  crossAppAuthorizeRequestSchema,
  crossAppLinkRequestSchema,
  crossAppRequesterRequestSchema,
  crossAppTransactVerifyRequestSchema,
} from '@latchkey/protocol'

/** Linked-account type of a provider app's account; identifier = the provider's user id. */
export const CROSS_APP_ACCOUNT_TYPE = 'cross_app'

/** Throws an Error when a `cross_app` app setting is malformed. */
export function assertCrossAppSettings(value: unknown): asserts value is CrossAppSettings {
  const parsed = crossAppSettingsSchema.safeParse(value)
  if (!parsed.success)
    throw new Error(
      'Invalid cross_app: { enabled: boolean, read_only?: boolean, allowed_requester_app_ids?: string[], custom_api_url: "https://…" }',
    )
}
