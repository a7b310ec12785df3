import { MFA_ATTEMPT_WINDOW_MS, MFA_MAX_CODE_ATTEMPTS } from '@latchkey/protocol'
import { type ApiError, limited } from '../errors.ts'
import type { Services } from '../http/context.ts'

/*
 * The per-user cap on MFA codes (security bar 5; docs/mfa.md "Limits"): at
 * most MFA_MAX_CODE_ATTEMPTS codes per window of MFA_ATTEMPT_WINDOW_MS,
 * counted from the window's first code, across methods and across setup and
 * verification. As with login codes (auth/otp.ts) an attempt is counted
 * BEFORE the code is compared, by one conditional upsert on the user's
 * mfa_attempts row — the same claim the resend cooldown uses — so a
 * concurrent burst of guesses cannot pass the cap on SQLite or PostgreSQL: the
 * row serialises the claims and each sees the count the last one left. A right
 * code clears the count.
 */

/**
 * Counts one MFA code attempt for the user, or refuses it: 429
 * MFA_MAX_ATTEMPTS with `retry_after` (seconds until the window ends) once
 * the window's attempts are spent. Call it before comparing the code.
 *
 * @example
 * await claimMfaAttempt(services, auth.userId)
 * if (!(await matchTotpStep(…))) throw new ApiError('MFA_INVALID_CODE')
 * await clearMfaAttempts(services, auth.userId)
 */
export async function claimMfaAttempt(services: Services, userId: string): Promise<void> {
  const now = services.now()
  const windowEnd = now + MFA_ATTEMPT_WINDOW_MS
  const claimed = await services.db
    .insertInto('mfa_attempts')
    .values({ user_id: userId, attempts: 1, expires_at: windowEnd })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet((eb) => {
          const windowOver = eb('mfa_attempts.expires_at', '<=', now)
          return {
            // A window that is over starts again with this attempt.
            attempts: eb
              .case()
              .when(windowOver)
              .then(1)
              .else(eb('mfa_attempts.attempts', '+', 1))
              .end(),
            expires_at: eb
              .case()
              .when(windowOver)
              .then(windowEnd)
              .else(eb.ref('mfa_attempts.expires_at'))
              .end(),
          }
        })
        .where((eb) =>
          eb.or([
            eb('mfa_attempts.expires_at', '<=', now),
            eb('mfa_attempts.attempts', '<', MFA_MAX_CODE_ATTEMPTS),
          ]),
        ),
    )
    .executeTakeFirst()
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1) return

  const row = await services.db
    .selectFrom('mfa_attempts')
    .select('expires_at')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  throw maxAttempts(Number(row?.expires_at ?? windowEnd), now)
}

/** After a right code: the user's next code starts a new window. */
export async function clearMfaAttempts(services: Services, userId: string): Promise<void> {
  await services.db.deleteFrom('mfa_attempts').where('user_id', '=', userId).execute()
}

/**
 * MFA_MAX_ATTEMPTS with `retry_after`. The catalogue keeps the spec's words
 * (its client-side limit says 10 seconds); the server's own message says how
 * long its lock really lasts.
 */
function maxAttempts(resetAt: number, now: number): ApiError {
  const error = limited('MFA_MAX_ATTEMPTS', resetAt, now)
  const seconds = error.retryAfter ?? 1
  const [n, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute']
  error.message = `You have exceeded the maximum number of attempts. Please close this window and try again in ${n} ${unit}${n === 1 ? '' : 's'}.`
  return error
}
