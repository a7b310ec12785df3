import type { AppRecord } from '../apps/service.ts'
import { isUniqueViolation } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { sha256 } from '../ids.ts'
import { verifyAltchaToken } from './altcha.ts'
import { type CaptchaProviderName, captchaProviderOf } from './provider.ts'
import { verifyTurnstileToken } from './turnstile.ts'
import type { CaptchaVerifier } from './types.ts'

const verifiers: Record<CaptchaProviderName, CaptchaVerifier> = {
  turnstile: verifyTurnstileToken,
  altcha: verifyAltchaToken,
}

/**
 * Security bar 49: when `app` enables captcha, the request's token must pass
 * its provider, and only once, before the route does anything (no code sent,
 * no nonce issued). A missing token is CAPTCHA_FAILED; a reused or stale one
 * CAPTCHA_INVALID (the client resets its captcha); an unreachable verifier
 * CAPTCHA_TIMEOUT — it blocks, never lets through. Apps without captcha pass.
 *
 * @example
 * await verifyCaptcha(services, app, body.token, clientIp(c, services), c.req.header('origin'))
 */
export async function verifyCaptcha(
  services: Services,
  app: AppRecord,
  token: string | undefined,
  remoteIp: string | undefined,
  // Required (not optional) so that a call site that forgets it does not compile.
  origin: string | undefined,
): Promise<void> {
  const provider = captchaProviderOf(app)
  if (!provider) return
  if (!token) throw new ApiError('CAPTCHA_FAILED', 'A captcha token is required')
  const check = { services, app, token, remoteIp, origin }
  const { replayKey, expiresAt } = await verifiers[provider](check)
  await spendCaptchaToken(services, app.id, replayKey, expiresAt)
}

/**
 * Records a verified token as spent: the insert of its hash is the single-use
 * check (a unique violation means a second use, CAPTCHA_INVALID), atomic on
 * SQLite and Postgres alike, across server nodes. Expired records are swept
 * on the way.
 */
export async function spendCaptchaToken(
  services: Services,
  appId: string,
  replayKey: string,
  expiresAt: number,
): Promise<void> {
  const now = services.now()
  await services.db.deleteFrom('captcha_tokens').where('expires_at', '<', now).execute()
  try {
    await services.db
      .insertInto('captcha_tokens')
      .values({
        token_hash: sha256(replayKey),
        app_id: appId,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('CAPTCHA_INVALID')
    throw error
  }
}
