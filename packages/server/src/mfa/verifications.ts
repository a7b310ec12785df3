import { MFA_VERIFICATION_TTL_MS, type MfaMethod, type MfaVerification } from '@latchkey/protocol'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { enabledMfaMethods } from './factors.ts'

/*
 * MFA verifications (table mfa_verifications, migration 013; docs/mfa.md
 * "Enforcement"). A verified code gives the session that sent it — and only
 * that session, which is bound at login to one enclave device key — a window
 * of MFA_VERIFICATION_TTL_MS in which the MFA-protected key routes answer it.
 * Another session of the same user, even on the same device, has its own
 * window. The window is not spent by use: the "a verification lasts
 * 15 minutes per device".
 */

const seconds = (ms: number) => Math.floor(ms / 1000)

/** Opens (or renews) this session's window after a right code. */
export async function recordMfaVerification(
  services: Services,
  auth: AuthContext,
  method: MfaMethod,
): Promise<MfaVerification> {
  const now = services.now()
  const expiresAt = now + MFA_VERIFICATION_TTL_MS
  await services.db
    .insertInto('mfa_verifications')
    .values({
      session_id: auth.sessionId,
      user_id: auth.userId,
      method,
      verified_at: now,
      expires_at: expiresAt,
    })
    .onConflict((oc) =>
      oc.column('session_id').doUpdateSet({ method, verified_at: now, expires_at: expiresAt }),
    )
    .execute()
  return { method, verified_at: seconds(now), expires_at: seconds(expiresAt) }
}

/** Until when (epoch ms) this session's window lasts; null when it has none or it is over. */
export async function verifiedUntil(services: Services, auth: AuthContext): Promise<number | null> {
  const row = await services.db
    .selectFrom('mfa_verifications')
    .select('expires_at')
    .where('session_id', '=', auth.sessionId)
    .where('user_id', '=', auth.userId)
    .executeTakeFirst()
  const expiresAt = row === undefined ? null : Number(row.expires_at)
  return expiresAt !== null && services.now() < expiresAt ? expiresAt : null
}

/**
 * The MFA check of key routes (`mfa: true` in http/route.ts; security bar
 * 38): a user with an enabled factor passes only with a verification of this
 * very session younger than MFA_VERIFICATION_TTL_MS; otherwise 403
 * MFA_REQUIRED, whose `details.mfa_methods` lists the methods to verify with.
 * A user without MFA passes.
 *
 * @example
 * await requireFreshMfa(services, auth) // before releasing the auth share
 */
export async function requireFreshMfa(services: Services, auth: AuthContext): Promise<void> {
  const methods = await enabledMfaMethods(services.db, auth.userId)
  if (methods.length === 0) return
  if ((await verifiedUntil(services, auth)) === null)
    throw new ApiError('MFA_REQUIRED', undefined, { mfa_methods: methods })
}

/**
 * Ends this session's window (spec 02 §7 "clear MFA": the client forgets its
 * verification, e.g. when the user locks the wallet or logs out): the next
 * MFA-protected call needs a new verification. Other sessions keep theirs.
 *
 * @example
 * await clearMfaVerification(services, auth) // POST /api/v1/mfa/clear
 */
export async function clearMfaVerification(services: Services, auth: AuthContext): Promise<void> {
  await services.db
    .deleteFrom('mfa_verifications')
    .where('session_id', '=', auth.sessionId)
    .where('user_id', '=', auth.userId)
    .execute()
}
