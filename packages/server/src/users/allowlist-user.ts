import type { Services } from '../http/context.ts'
import { activeAllowlist, assertAllowlisted } from './allowlist.ts'
import { linkedAccountsOf } from './service.ts'

/**
 * The allowlist check of a login by an existing user (sessions/service.ts
 * startSession): any of the user's linked accounts may match. Costs nothing
 * while the allowlist is off (the app comes from the in-memory cache).
 */
export async function assertUserAllowlisted(
  services: Services,
  appId: string,
  userId: string,
): Promise<void> {
  const app = await services.apps.get(appId)
  if (!app || activeAllowlist(app.settings) === null) return
  assertAllowlisted(app.settings, await linkedAccountsOf(services.db, userId))
}
