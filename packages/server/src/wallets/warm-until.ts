import type { AuthContext, Services } from '../http/context.ts'
import { enabledMfaMethods } from '../mfa/factors.ts'
import { verifiedUntil } from '../mfa/verifications.ts'

/**
 * How long the enclave may keep a rebuilt key after this auth-share release
 * (docs/mfa.md "Warm keys"): the end of this session's MFA window (epoch ms)
 * when the user has an enabled factor and the window is open, else null.
 *
 * Without MFA there is no window: nothing would bound how long a key stays
 * in memory short of the session itself, and no user action (a verification
 * to renew, a clear to end) would govern it. So a user without MFA gets
 * null and the enclave fetches the share for every operation, as before. A
 * leftover verification of a user who has since removed every factor opens
 * nothing either.
 *
 * @example
 * return { entropy_id, auth_share, warm_until: await warmUntil(services, auth) }
 */
export async function warmUntil(services: Services, auth: AuthContext): Promise<number | null> {
  const methods = await enabledMfaMethods(services.db, auth.userId)
  if (methods.length === 0) return null
  return verifiedUntil(services, auth)
}
