import { createHash } from 'node:crypto'
import type { OAuthProvider } from '@latchkey/protocol'
import { safeEqual } from '../../crypto/secrets.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'

/** A provider must send the user back within 10 minutes. */
export const OAUTH_LOGIN_STATE_TTL_MS = 10 * 60_000

/** The stored form of a state code: an HMAC keyed from the master key (never the code). */
export const oauthLoginStateHash = (services: Pick<Services, 'secrets'>, stateCode: string) =>
  services.secrets.mac('oauth-login-states', stateCode)

/**
 * The OIDC nonce of a state (security bar 13): derived from the state code
 * with the master key, so nothing more is stored and an id_token minted for
 * another login (another state) fails the nonce check.
 */
export const oauthNonce = (services: Pick<Services, 'secrets'>, stateCode: string) =>
  services.secrets.mac('oauth-login-nonce', stateCode)

export interface OAuthStateBinding {
  appId: string
  provider: OAuthProvider
  intent: 'login' | 'link'
  /** The signed-in user of a link; null for a login. */
  userId: string | null
}

/**
 * Records a redirect in flight (RFC 9700 §2.1): the state bound to app,
 * provider, intent and (link) user, with the redirect URI and the S256
 * challenge, valid 10 minutes. A state code already recorded is refused
 * (400 OAUTH_STATE_MISMATCH). Expired states are deleted on the way.
 */
export async function recordOAuthLoginState(
  services: Services,
  binding: OAuthStateBinding,
  input: { stateCode: string; redirectTo: string; codeChallenge: string },
): Promise<void> {
  const now = services.now()
  try {
    await services.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('oauth_login_states').where('expires_at', '<', now).execute()
      await tx
        .insertInto('oauth_login_states')
        .values({
          state_hash: oauthLoginStateHash(services, input.stateCode),
          app_id: binding.appId,
          user_id: binding.userId,
          provider: binding.provider,
          intent: binding.intent,
          redirect_to: input.redirectTo,
          code_challenge: input.codeChallenge,
          created_at: now,
          expires_at: now + OAUTH_LOGIN_STATE_TTL_MS,
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

/**
 * Spends a state (security bar 12): one conditional UPDATE marks it used
 * only if it exists with this exact binding, is unexpired and unused — of two
 * concurrent calls exactly one wins. Spent before the provider exchange, so a
 * failed exchange needs a new redirect. Anything else is 400
 * OAUTH_STATE_MISMATCH (the spec's phishing message), and a state of another
 * binding is left untouched.
 */
export async function consumeOAuthLoginState(
  services: Services,
  binding: OAuthStateBinding,
  stateCode: string,
): Promise<{ redirectTo: string; codeChallenge: string }> {
  const now = services.now()
  let query = services.db
    .updateTable('oauth_login_states')
    .set({ used_at: now })
    .where('state_hash', '=', oauthLoginStateHash(services, stateCode))
    .where('app_id', '=', binding.appId)
    .where('provider', '=', binding.provider)
    .where('intent', '=', binding.intent)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
  query =
    binding.userId === null
      ? query.where('user_id', 'is', null)
      : query.where('user_id', '=', binding.userId)
  const row = await query.returning(['redirect_to', 'code_challenge']).executeTakeFirst()
  if (!row) throw new ApiError('OAUTH_STATE_MISMATCH')
  return { redirectTo: row.redirect_to, codeChallenge: row.code_challenge }
}

/**
 * RFC 7636 §4.6 with S256 only (security bar 11): the verifier must hash to
 * the challenge recorded at init. Checked by Latchkey for every provider,
 * including those that do not support PKCE themselves, so a code intercepted
 * on the way back is useless without the verifier kept in the tab.
 */
export function assertPkceVerifier(codeVerifier: string, codeChallenge: string): void {
  const computed = createHash('sha256').update(codeVerifier).digest('base64url')
  if (!safeEqual(computed, codeChallenge)) throw new ApiError('OAUTH_INVALID_CODE')
}
