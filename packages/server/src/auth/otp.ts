import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '@latchkey/protocol'
import { safeEqual } from '../crypto/secrets.ts'
import { affected } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { newId, newNumericCode } from '../ids.ts'

/** Delivery channels of one-time codes; SMS and WhatsApp reuse this module. */
export type OtpChannel = 'email' | 'sms' | 'whatsapp'

export interface IssueOtpInput {
  appId: string
  channel: OtpChannel
  /** Normalised identifier (lowercased email, E.164 phone). */
  identifier: string
  /** Caller IP for the per-IP cap (undefined when unknown). */
  ip: string | undefined
}

const codeHash = (
  services: Services,
  appId: string,
  channel: OtpChannel,
  identifier: string,
  code: string,
) =>
  // Bound to app, channel and identifier: a code issued for A never matches B (security bar 4).
  services.secrets.mac('otp-codes', `${appId}|${channel}|${identifier}|${code}`)

/**
 * Issues a one-time code (security bar 1, 2): CSPRNG, stored only as an
 * HMAC, expires after CODE_TTL_MS, replaces any older code for the
 * identifier. Enforces the resend cooldown and the per-identifier and per-IP
 * send caps. Never looks at whether the identifier belongs to a user, so the
 * answer is the same for known and unknown identifiers (security bar 6).
 * Returns the plaintext code for delivery; the caller must not log it.
 */
export async function issueOtp(
  services: Services,
  input: IssueOtpInput,
): Promise<{ code: string; expiresAt: number }> {
  const { db, limiter, config } = services
  const { appId, channel, identifier } = input
  const now = services.now()

  const latest = await db
    .selectFrom('otp_codes')
    .select('created_at')
    .where('app_id', '=', appId)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (latest && now - Number(latest.created_at) < config.rateLimits.codeResendCooldownMs)
    throw new ApiError('RESEND_COOLDOWN')

  const perIdentifier = config.rateLimits.codeSendsPerIdentifier
  const perIp = config.rateLimits.codeSendsPerIp
  const ipResult = await limiter.hit(
    `otp-send-ip:${input.ip ?? 'unknown'}`,
    perIp.limit,
    perIp.windowMs,
  )
  if (!ipResult.allowed) throw new ApiError('TOO_MANY_REQUESTS')
  const idResult = await limiter.hit(
    `otp-send:${appId}:${channel}:${identifier}`,
    perIdentifier.limit,
    perIdentifier.windowMs,
  )
  if (!idResult.allowed) throw new ApiError('TOO_MANY_REQUESTS')

  const code = newNumericCode()
  const expiresAt = now + CODE_TTL_MS
  await db.transaction().execute(async (tx) => {
    // A new code invalidates the older ones for this identifier.
    await tx
      .updateTable('otp_codes')
      .set({ consumed_at: now })
      .where('app_id', '=', appId)
      .where('channel', '=', channel)
      .where('identifier', '=', identifier)
      .where('consumed_at', 'is', null)
      .execute()
    await tx
      .insertInto('otp_codes')
      .values({
        id: newId(),
        app_id: appId,
        channel,
        identifier,
        code_hash: codeHash(services, appId, channel, identifier, code),
        expires_at: expiresAt,
        attempts: 0,
        consumed_at: null,
        created_at: now,
      })
      .execute()
    // Housekeeping: codes long past expiry are of no use to anyone.
    await tx
      .deleteFrom('otp_codes')
      .where('expires_at', '<', now - 24 * 60 * 60_000)
      .execute()
  })
  return { code, expiresAt }
}

export interface VerifyOtpInput {
  appId: string
  channel: OtpChannel
  identifier: string
  code: string
}

/**
 * Checks and consumes a code (security bar 2–5). An attempt is counted
 * atomically BEFORE the comparison (`attempts < CODE_MAX_ATTEMPTS` in the
 * UPDATE), so a concurrent burst of guesses cannot exceed the cap; a correct
 * code is consumed with a conditional UPDATE, so it works exactly once.
 * Every attempt also counts against a per-identifier cap across codes,
 * taken atomically from the rate limiter before anything else, so that cap
 * holds under a concurrent burst too.
 *
 * Throws INVALID_CODE (wrong, expired, none), TOO_MANY_ATTEMPTS (cap hit).
 */
export async function verifyOtp(services: Services, input: VerifyOtpInput): Promise<void> {
  const { db, limiter, config } = services
  const { appId, channel, identifier } = input
  const perIdentifier = config.rateLimits.codeAttemptsPerIdentifier
  const counted = await limiter.hit(
    `otp-attempt:${appId}:${channel}:${identifier}`,
    perIdentifier.limit,
    perIdentifier.windowMs,
  )
  if (!counted.allowed) throw new ApiError('TOO_MANY_ATTEMPTS')

  const now = services.now()
  const row = await db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash', 'expires_at', 'attempts'])
    .where('app_id', '=', appId)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row || now >= Number(row.expires_at)) throw new ApiError('INVALID_CODE')

  const attempt = await db
    .updateTable('otp_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .where('attempts', '<', CODE_MAX_ATTEMPTS)
    .where('consumed_at', 'is', null)
    .executeTakeFirst()
  if (affected(attempt) !== 1) {
    // Either the cap is spent or a concurrent request consumed the code.
    const current = await db
      .selectFrom('otp_codes')
      .select(['attempts', 'consumed_at'])
      .where('id', '=', row.id)
      .executeTakeFirst()
    if (current && current.consumed_at === null && current.attempts >= CODE_MAX_ATTEMPTS)
      throw new ApiError('TOO_MANY_ATTEMPTS')
    throw new ApiError('INVALID_CODE')
  }

  if (!safeEqual(row.code_hash, codeHash(services, appId, channel, identifier, input.code)))
    throw new ApiError('INVALID_CODE')

  const consumed = await db
    .updateTable('otp_codes')
    .set({ consumed_at: now })
    .where('id', '=', row.id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst()
  // A concurrent double-submit of the right code: only one wins.
  if (affected(consumed) !== 1) throw new ApiError('INVALID_CODE')
}
