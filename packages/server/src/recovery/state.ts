import type { CloudRecoveryProvider } from '@latchkey/protocol'
import { isUniqueViolation } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'

/** A consent must come back within 10 minutes. */
export const RECOVERY_OAUTH_STATE_TTL_MS = 10 * 60_000

/**
 * The stored form of a state code: an HMAC keyed from the master key, so the
 * table never holds a usable state (the code has ≥ 128 bits, chosen by the
 * host SDK).
 */
export const oauthStateHash = (services: Pick<Services, 'secrets'>, stateCode: string): string =>
  services.secrets.mac('recovery-oauth-states', stateCode)

export interface NewOAuthState {
  auth: AuthContext
  provider: CloudRecoveryProvider
  stateCode: string
  redirectTo: string
  codeChallenge: string | null
}

/**
 * Records a consent in flight (RFC 9700 §2.1): the state bound to this
 * user, app and provider, with the redirect URI and PKCE challenge, valid
 * 10 minutes. A state code already recorded is refused (400
 * OAUTH_STATE_MISMATCH): a state names one consent only. Expired states are
 * deleted on the way.
 */
export async function recordOAuthState(services: Services, input: NewOAuthState): Promise<void> {
  const now = services.now()
  try {
    await services.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('recovery_oauth_states').where('expires_at', '<', now).execute()
      await tx
        .insertInto('recovery_oauth_states')
        .values({
          state_hash: oauthStateHash(services, input.stateCode),
          app_id: input.auth.appId,
          user_id: input.auth.userId,
          provider: input.provider,
          redirect_to: input.redirectTo,
          code_challenge: input.codeChallenge,
          created_at: now,
          expires_at: now + RECOVERY_OAUTH_STATE_TTL_MS,
          used_at: null,
        })
        .execute()
    })
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('OAUTH_STATE_MISMATCH', 'This state code was already used')
    throw error
  }
}

/** What the consent recorded, for the code exchange. */
export interface ConsumedOAuthState {
  redirectTo: string
  codeChallenge: string | null
}

/**
 * Spends a state (RFC 9700 §2.1; security bar 12): one conditional UPDATE
 * marks it used only if it exists, belongs to this user, app and provider,
 * is unexpired and unused — so of two concurrent calls exactly one wins. It
 * is spent BEFORE the provider exchange: a failed exchange needs a new
 * consent. A state of another user, app or provider is left untouched (its
 * owner can still use it) and answered like an unknown one: 400
 * OAUTH_STATE_MISMATCH.
 */
export async function consumeOAuthState(
  services: Services,
  auth: AuthContext,
  provider: CloudRecoveryProvider,
  stateCode: string,
): Promise<ConsumedOAuthState> {
  const now = services.now()
  const row = await services.db
    .updateTable('recovery_oauth_states')
    .set({ used_at: now })
    .where('state_hash', '=', oauthStateHash(services, stateCode))
    .where('app_id', '=', auth.appId)
    .where('user_id', '=', auth.userId)
    .where('provider', '=', provider)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['redirect_to', 'code_challenge'])
    .executeTakeFirst()
  if (!row) throw new ApiError('OAUTH_STATE_MISMATCH')
  return { redirectTo: row.redirect_to, codeChallenge: row.code_challenge }
}
