import { CODE_MAX_ATTEMPTS, CODE_TTL_MS } from '@latchkey/protocol'
import { sql } from 'kysely'
import { precompile } from '../db/precompiled.ts'
import { ApiError, limited } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { newId, newNumericCode } from '../ids.ts'
import { limitPerIp } from '../rate-limit/limit-per-ip.ts'

/**
 * Delivery channels of one-time codes; SMS and WhatsApp reuse this module.
 * `sms-mfa`: the SMS MFA factor's codes (mfa/sms.ts), bound to their own
 * channel so they never pass for login codes to the same phone, nor the
 * other way round (security bar 4).
 */
export type OtpChannel = 'email' | 'sms' | 'whatsapp' | 'sms-mfa'

export interface IssueOtpInput {
  appId: string
  channel: OtpChannel
  /** Normalised identifier (lowercased email, E.164 phone). */
  identifier: string
  /** Caller IP for the per-IP cap (undefined when unknown). */
  ip: string | undefined
  /**
   * Who (and what for) the code is issued to, beyond its address: MFA codes
   * name the user and the purpose, so a code sent for one user's enrollment
   * never verifies another user, or a verification. Bound into the hash
   * only: the cooldown and the caps stay per address.
   */
  subject?: string
}

const codeHash = (
  services: Services,
  input: { appId: string; channel: OtpChannel; identifier: string; subject?: string | undefined },
  code: string,
) => {
  const { appId, channel, identifier, subject } = input
  // Bound to app, channel and identifier: a code issued for A never matches B (security bar 4).
  const bound = subject === undefined ? identifier : `${identifier}|${subject}`
  return services.secrets.mac('otp-codes', `${appId}|${channel}|${bound}|${code}`)
}

/**
 * Issues a one-time code (security bar 1, 2): CSPRNG, stored only as an
 * HMAC, expires after CODE_TTL_MS, replaces any older code for the
 * identifier. Enforces the resend cooldown and the per-identifier and per-IP
 * send caps. Never looks at whether the identifier belongs to a user, so the
 * answer is the same for known and unknown identifiers (security bar 6).
 * Returns the plaintext code for delivery; the caller must not log it.
 *
 * The cooldown is claimed by one conditional upsert on the identifier's
 * `otp_send_cooldowns` row, so concurrent sends yield one code on SQLite and
 * Postgres alike (tracker issue 15, 7c). The per-IP cap is counted before the
 * claim (an IP past its cap cannot hold anyone's cooldown), the per-identifier
 * cap after it (a concurrent burst spends one send, not twenty).
 *
 * Every 429 says when to come back (`retry_after`): RESEND_COOLDOWN when the
 * address's cooldown ends, TOO_MANY_REQUESTS when the cap's window does.
 */
export async function issueOtp(
  services: Services,
  input: IssueOtpInput,
): Promise<{ code: string; expiresAt: number }> {
  const { db, limiter, config } = services
  const { appId, channel, identifier } = input
  const now = services.now()
  const cooldownMs = config.rateLimits.codeResendCooldownMs

  // A resend within the cooldown is refused before it counts against any cap.
  const last = await db
    .selectFrom('otp_send_cooldowns')
    .select('sent_at')
    .where('app_id', '=', appId)
    .where('channel', '=', channel)
    .where('identifier', '=', identifier)
    .executeTakeFirst()
  if (last && now - Number(last.sent_at) < cooldownMs)
    throw limited('RESEND_COOLDOWN', Number(last.sent_at) + cooldownMs, now)

  await limitPerIp(services, 'otp-send', config.rateLimits.codeSendsPerIp, input.ip)

  // The claim: inserts the row, or moves `sent_at` only when the cooldown has
  // passed. Concurrent claims serialise on the row; exactly one changes it.
  const claimed = await db
    .insertInto('otp_send_cooldowns')
    .values({ app_id: appId, channel, identifier, sent_at: now })
    .onConflict((oc) =>
      oc
        .columns(['app_id', 'channel', 'identifier'])
        .doUpdateSet({ sent_at: now })
        .where('otp_send_cooldowns.sent_at', '<=', now - cooldownMs),
    )
    .executeTakeFirst()
  // Lost to a concurrent claim: that send's cooldown has just begun.
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1)
    throw limited('RESEND_COOLDOWN', now + cooldownMs, now)

  // Past the cap the cooldown stays claimed: no code could go out in it anyway.
  const perIdentifier = config.rateLimits.codeSendsPerIdentifier
  const idResult = await limiter.hit(
    `otp-send:${appId}:${channel}:${identifier}`,
    perIdentifier.limit,
    perIdentifier.windowMs,
  )
  if (!idResult.allowed) throw limited('TOO_MANY_REQUESTS', idResult.resetAt, now)

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
        code_hash: codeHash(services, input, code),
        expires_at: expiresAt,
        attempts: 0,
        consumed_at: null,
        created_at: now,
      })
      .execute()
    // Housekeeping: codes long past expiry, and cooldowns long over, are of no use to anyone.
    const day = 24 * 60 * 60_000
    await tx
      .deleteFrom('otp_codes')
      .where('expires_at', '<', now - day)
      .execute()
    await tx
      .deleteFrom('otp_send_cooldowns')
      .where('sent_at', '<', now - Math.max(day, cooldownMs))
      .execute()
  })
  return { code, expiresAt }
}

export interface VerifyOtpInput {
  appId: string
  channel: OtpChannel
  identifier: string
  code: string
  /** Caller IP for the per-IP cap (undefined when unknown). */
  ip: string | undefined
  /** The subject the code was issued to ({@link IssueOtpInput.subject}). */
  subject?: string
}

/**
 * Checks and consumes a code (security bar 2–5). Every attempt, right or
 * wrong, is counted by one conditional UPDATE (`attempts < CODE_MAX_ATTEMPTS`
 * and not consumed), which also consumes a right code: a concurrent burst of
 * guesses cannot exceed the cap, a right code past the cap is refused like a
 * wrong one, and a right code works exactly once.
 * Every attempt also counts against a per-IP cap and a per-identifier cap
 * across codes, taken atomically from the rate limiter before anything
 * else, so those caps hold under a concurrent burst too. The per-IP cap comes
 * first: an IP past it spends nothing of the address's own budget.
 *
 * Throws INVALID_CODE (wrong, expired, none), TOO_MANY_ATTEMPTS (per-code or
 * per-identifier cap hit), TOO_MANY_REQUESTS (per-IP cap hit).
 */
export async function verifyOtp(services: Services, input: VerifyOtpInput): Promise<void> {
  const { db, limiter, config } = services
  const { appId, channel, identifier } = input
  await limitPerIp(services, 'otp-attempt', config.rateLimits.codeAttemptsPerIp, input.ip)
  const perIdentifier = config.rateLimits.codeAttemptsPerIdentifier
  const counted = await limiter.hit(
    `otp-attempt:${appId}:${channel}:${identifier}`,
    perIdentifier.limit,
    perIdentifier.windowMs,
  )
  if (!counted.allowed) throw limited('TOO_MANY_ATTEMPTS', counted.resetAt, services.now())

  // One conditional UPDATE of the newest live code counts the attempt and,
  // when the code is right, consumes it: under the cap, not consumed, not
  // expired, or nothing changes (then a read says which refusal it is).
  const now = services.now()
  const hash = codeHash(services, input, input.code)
  const attempt = await attemptCode.firstInGroupCommit(db, {
    appId,
    channel,
    identifier,
    hash,
    now,
  })
  if (attempt) {
    if (Number(attempt.consumed) === 1) return
    throw new ApiError('INVALID_CODE')
  }
  // No live code, an expired one, its cap spent, or a concurrent request consumed it.
  const current = await latestLiveCode.first(db, { appId, channel, identifier })
  if (current && now < Number(current.expires_at) && current.attempts >= CODE_MAX_ATTEMPTS)
    throw new ApiError('TOO_MANY_ATTEMPTS')
  throw new ApiError('INVALID_CODE')
}

/** The identifier's newest code not yet consumed. */
const latestLiveCode = precompile<{ appId: string; channel: OtpChannel; identifier: string }>()(
  (db, param) =>
    db
      .selectFrom('otp_codes')
      .select(['id', 'expires_at', 'attempts'])
      .where('app_id', '=', param('appId'))
      .where('channel', '=', param('channel'))
      .where('identifier', '=', param('identifier'))
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(1),
)

/**
 * One more attempt at the identifier's newest live code, if it is under the
 * cap, not consumed and not expired; consumed too when `hash` is its hash
 * (so a right code works once: of a concurrent double submit, one wins).
 * Returns whether it was consumed; no row when nothing changed.
 */
const attemptCode = precompile<{
  appId: string
  channel: OtpChannel
  identifier: string
  hash: string
  now: number
}>()((db, param) =>
  db
    .updateTable('otp_codes')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      consumed_at: sql<
        number | null
      >`case when code_hash = ${param('hash')} then cast(${param('now')} as bigint) else null end`,
    }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('otp_codes')
        .select('id')
        .where('app_id', '=', param('appId'))
        .where('channel', '=', param('channel'))
        .where('identifier', '=', param('identifier'))
        .where('consumed_at', 'is', null)
        .orderBy('created_at', 'desc')
        .limit(1),
    )
    .where('attempts', '<', CODE_MAX_ATTEMPTS)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', param('now'))
    .returning(sql<number>`case when consumed_at is null then 0 else 1 end`.as('consumed')),
)
