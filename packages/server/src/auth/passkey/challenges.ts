import { randomBytes } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { affected } from '../../db/connect.ts'
import type { Database, PasskeyChallengesTable } from '../../db/types.ts'
import { ApiError, limited } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { ipBucket } from '../../rate-limit/limit-per-ip.ts'
import {
  PASSKEY_CHALLENGE_BYTES,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_INITS_PER_IP,
} from './schema.ts'

/*
 * Passkey challenges (security bar 23, WebAuthn §13.4.3): 256 random bits
 * from the server, stored, bound to one app, one purpose, the relying party
 * and origin they were issued for and (link) the signed-in user; valid
 * PASSKEY_CHALLENGE_TTL_MS; spent by one conditional UPDATE once the
 * response verified, so two concurrent submissions yield one session.
 */

export type PasskeyPurpose = PasskeyChallengesTable['purpose']
export type PasskeyChallenge = Selectable<PasskeyChallengesTable>

/**
 * PASSKEY_VERIFICATION_FAILED with a machine `reason` in details, for any
 * refused ceremony (the message stays the catalogue's).
 *
 * @example
 * throw passkeyFailed('challenge_used')
 */
export function passkeyFailed(reason: string): ApiError {
  return new ApiError('PASSKEY_VERIFICATION_FAILED', undefined, { reason })
}

/** A fresh base64url challenge of PASSKEY_CHALLENGE_BYTES random bytes. */
export const newPasskeyChallenge = (): string =>
  randomBytes(PASSKEY_CHALLENGE_BYTES).toString('base64url')

/** TOO_MANY_REQUESTS once this IP asked for PASSKEY_INITS_PER_IP challenges of this app. */
export async function limitPasskeyInit(
  services: Services,
  appId: string,
  ip: string | undefined,
): Promise<void> {
  const { limit, windowMs } = PASSKEY_INITS_PER_IP
  const result = await services.limiter.hit(
    `passkey-init:${appId}:${ipBucket(ip)}`,
    limit,
    windowMs,
  )
  if (!result.allowed) throw limited('TOO_MANY_REQUESTS', result.resetAt, services.now())
}

/** What a challenge is bound to besides its app. */
export interface ChallengeBinding {
  purpose: PasskeyPurpose
  rpId: string
  origin: string
  /** The signed-in user (link, mfa). */
  userId?: string | null
  /** The WebAuthn user handle the creation options carried (register, link). */
  webauthnUserId?: string | null
}

/**
 * Stores a new challenge for this app and binding; expired rows are deleted
 * on the way.
 *
 * @example
 * const challenge = await issueChallenge(services, app.id, { purpose: 'authenticate', rpId, origin })
 */
export async function issueChallenge(
  services: Services,
  appId: string,
  binding: ChallengeBinding,
): Promise<PasskeyChallenge> {
  const now = services.now()
  await services.db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute()
  const row: PasskeyChallenge = {
    challenge: newPasskeyChallenge(),
    app_id: appId,
    purpose: binding.purpose,
    user_id: binding.userId ?? null,
    rp_id: binding.rpId,
    origin: binding.origin,
    webauthn_user_id: binding.webauthnUserId ?? null,
    created_at: now,
    expires_at: now + PASSKEY_CHALLENGE_TTL_MS,
    used_at: null,
  }
  await services.db.insertInto('passkey_challenges').values(row).execute()
  return row
}

/**
 * The unspent, unexpired challenge this app issued for `purpose` (and, for
 * link and mfa, to `userId`); PASSKEY_VERIFICATION_FAILED (`challenge_unknown`,
 * `challenge_used`, `challenge_expired`) otherwise. A challenge of another
 * app, purpose or user is unknown.
 */
export async function findUsableChallenge(
  db: Kysely<Database>,
  appId: string,
  purpose: PasskeyPurpose,
  challenge: string,
  now: number,
  userId: string | null = null,
): Promise<PasskeyChallenge> {
  let query = db
    .selectFrom('passkey_challenges')
    .selectAll()
    .where('challenge', '=', challenge)
    .where('app_id', '=', appId)
    .where('purpose', '=', purpose)
  query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId)
  const row = await query.executeTakeFirst()
  if (!row) throw passkeyFailed('challenge_unknown')
  if (row.used_at !== null) throw passkeyFailed('challenge_used')
  if (Number(row.expires_at) <= now) throw passkeyFailed('challenge_expired')
  return row
}

/**
 * Spends a challenge after its response verified: one conditional UPDATE,
 * so of two concurrent submissions exactly one wins; the other gets
 * `challenge_used`.
 */
export async function consumeChallenge(
  db: Kysely<Database>,
  challenge: string,
  now: number,
): Promise<void> {
  const result = await db
    .updateTable('passkey_challenges')
    .set({ used_at: now })
    .where('challenge', '=', challenge)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  if (affected(result) !== 1) throw passkeyFailed('challenge_used')
}
