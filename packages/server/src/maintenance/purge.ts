import { SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { CONSOLE_IDLE_MS } from '../console/sessions.ts'
import type { Database } from '../db/types.ts'
import { DELEGATED_ACTION_RETENTION_MS } from '../delegation/audit.ts'
import { SPONSORED_OPERATION_RETENTION_MS } from '../smart-wallets/sponsored-operations.ts'
import { KEY_RELEASE_RETENTION_MS } from '../wallets/key-releases.ts'

/** Rows deleted per statement: keeps each delete (and the locks it holds) short. */
export const PURGE_BATCH_SIZE = 1000

/** How often a running server purges, unless configured otherwise. */
export const DEFAULT_PURGE_INTERVAL_MS = 10 * 60_000

/** Kept as in auth/telegram/payloads.ts: a replay near auth_date's limit is still refused. */
const TELEGRAM_SWEEP_MARGIN_MS = 5 * 60_000

/**
 * A spent enclave proof is kept this long past its expiry (sessions/enclave-proof.ts),
 * so nodes whose clocks disagree by up to that much still refuse its replay.
 */
const ENCLAVE_PROOF_SWEEP_MARGIN_MS = 5 * 60_000

export interface PurgeExpiredOptions {
  /** Rows per delete statement (default 1000). */
  batchSize?: number
  /** The resend cooldown (`rateLimits.codeResendCooldownMs`): a cooldown row lives this long. */
  codeResendCooldownMs?: number
  /** The server's session settings: a session is kept while a refresh or an access token could still use it. */
  sessions?: { idleLifetimeMs: number; accessTokenTtlS: number; refreshOverlapMs: number }
  /** How long a key release (audit row) is kept (default 90 days, wallets/key-releases.ts). */
  keyReleaseRetentionMs?: number
  /** How long a delegated action (audit row) is kept (default 90 days, delegation/audit.ts). */
  delegatedActionRetentionMs?: number
  /** How long a sponsored operation is kept (default 90 days, smart-wallets/sponsored-operations.ts). */
  sponsoredOperationRetentionMs?: number
}

/** Rows deleted, per table. */
export type PurgeExpiredReturnType = Record<PurgedTable, number>

export type PurgedTable =
  | 'otp_codes'
  | 'otp_send_cooldowns'
  | 'sign_in_nonces'
  | 'oauth_login_states'
  | 'recovery_oauth_states'
  | 'farcaster_channels'
  | 'passkey_challenges'
  | 'captcha_tokens'
  | 'telegram_payloads'
  | 'account_transfers'
  | 'sessions'
  | 'refresh_tokens'
  | 'key_releases'
  | 'enclave_proof_jtis'
  | 'mfa_factors'
  | 'mfa_verifications'
  | 'mfa_attempts'
  | 'console_sessions'
  | 'delegated_actions'
  | 'sponsored_operations'

/** Tables with a single-column key and an `expires_at`: the key, and how long a row outlives its expiry. */
const EXPIRING: ReadonlyArray<{
  table: Exclude<
    PurgedTable,
    | 'otp_send_cooldowns'
    | 'sessions'
    | 'refresh_tokens'
    | 'key_releases'
    | 'console_sessions'
    | 'delegated_actions'
    | 'sponsored_operations'
  >
  key: string
  graceMs: number
}> = [
  { table: 'otp_codes', key: 'id', graceMs: 0 },
  { table: 'sign_in_nonces', key: 'nonce', graceMs: 0 },
  { table: 'oauth_login_states', key: 'state_hash', graceMs: 0 },
  { table: 'recovery_oauth_states', key: 'state_hash', graceMs: 0 },
  // Kept a while so a late poll still hears "timed out", not "unknown" (auth/farcaster/channels.ts).
  { table: 'farcaster_channels', key: 'channel_token_hash', graceMs: SIGN_IN_NONCE_TTL_MS },
  { table: 'passkey_challenges', key: 'challenge', graceMs: 0 },
  { table: 'captcha_tokens', key: 'token_hash', graceMs: 0 },
  { table: 'telegram_payloads', key: 'payload_hash', graceMs: TELEGRAM_SWEEP_MARGIN_MS },
  { table: 'account_transfers', key: 'nonce_hash', graceMs: 0 },
  { table: 'enclave_proof_jtis', key: 'jti_hash', graceMs: ENCLAVE_PROOF_SWEEP_MARGIN_MS },
  // Only pending MFA setups have an expiry; enabled factors (null) stay (mfa/service.ts).
  { table: 'mfa_factors', key: 'id', graceMs: 0 },
  { table: 'mfa_verifications', key: 'session_id', graceMs: 0 },
  // A window that is over counts nothing (mfa/attempts.ts).
  { table: 'mfa_attempts', key: 'user_id', graceMs: 0 },
]

/**
 * Deletes rows nobody can use any more, in batches of `batchSize`: one-time
 * codes, nonces, OAuth states, challenges, captcha tokens, transfer offers,
 * spent enclave proofs, pending MFA setups, MFA verifications and MFA attempt
 * windows past their expiry (every reader treats `expires_at <= now` as expired), resend
 * cooldowns that are over, and sessions — with their refresh tokens — past
 * their absolute lifetime (revoked or not) or idle for longer than a refresh
 * or an access token could still use them. A row that is still valid is never
 * deleted; a revoked session stays until its absolute end (a record of the
 * logout or reuse revocation), and a live session keeps its rotated refresh
 * tokens (reuse detection needs them); console sessions idle 12 h or
 * whose admin is revoked. Returns the count per table.
 *
 * @example
 * const counts = await purgeExpired(db, Date.now())
 * // { otp_codes: 12, sessions: 3, refresh_tokens: 40, … }
 */
export async function purgeExpired(
  db: Kysely<Database>,
  now: number,
  options: PurgeExpiredOptions = {},
): Promise<PurgeExpiredReturnType> {
  const batchSize = options.batchSize ?? PURGE_BATCH_SIZE
  const counts = {} as PurgeExpiredReturnType

  for (const { table, key, graceMs } of EXPIRING) {
    counts[table] = await inBatches(batchSize, async () => {
      // biome-ignore lint/suspicious/noExplicitAny: the table and key come from EXPIRING above
      const anyDb = db as Kysely<any>
      const result = await anyDb
        .deleteFrom(table)
        .where(
          key,
          'in',
          anyDb
            .selectFrom(table)
            .select(key)
            .where('expires_at', '<=', now - graceMs)
            .limit(batchSize),
        )
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    })
  }

  // auth/otp.ts: a send is refused while `now - sent_at < cooldown`.
  const cooldownEnd = now - (options.codeResendCooldownMs ?? 30_000)
  counts.otp_send_cooldowns = await inBatches(batchSize, async () => {
    const result = await db
      .deleteFrom('otp_send_cooldowns')
      .where((eb) =>
        eb(
          eb.refTuple('app_id', 'channel', 'identifier'),
          'in',
          eb
            .selectFrom('otp_send_cooldowns')
            .select(['app_id', 'channel', 'identifier'])
            .where('sent_at', '<=', cooldownEnd)
            .limit(batchSize)
            .$asTuple('app_id', 'channel', 'identifier'),
        ),
      )
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  })

  // sessions/service.ts: a refresh needs `now < last_used_at + idle`; an access
  // token (issued at a refresh, or a replay inside the overlap) needs the row until it expires.
  const sessions = options.sessions ?? {
    idleLifetimeMs: 7 * 24 * 60 * 60_000,
    accessTokenTtlS: 3600,
    refreshOverlapMs: 10_000,
  }
  const idleEnd =
    now -
    Math.max(sessions.idleLifetimeMs, sessions.accessTokenTtlS * 1000 + sessions.refreshOverlapMs)
  counts.sessions = 0
  counts.refresh_tokens = 0
  counts.sessions = await inBatches(batchSize, () =>
    db.transaction().execute(async (tx) => {
      const ids = (
        await tx
          .selectFrom('sessions')
          .select('id')
          .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_used_at', '<=', idleEnd)]))
          .limit(batchSize)
          .execute()
      ).map((row) => row.id)
      if (ids.length === 0) return 0
      // Explicitly, not by the foreign key's cascade: so they are counted.
      const tokens = await tx
        .deleteFrom('refresh_tokens')
        .where('session_id', 'in', ids)
        .executeTakeFirst()
      counts.refresh_tokens += Number(tokens.numDeletedRows)
      const deleted = await tx.deleteFrom('sessions').where('id', 'in', ids).executeTakeFirst()
      return Number(deleted.numDeletedRows)
    }),
  )

  // The audit of key releases is kept for its retention period, then deleted.
  const releasesEnd = now - (options.keyReleaseRetentionMs ?? KEY_RELEASE_RETENTION_MS)
  counts.key_releases = await inBatches(batchSize, async () => {
    const result = await db
      .deleteFrom('key_releases')
      .where(
        'id',
        'in',
        db
          .selectFrom('key_releases')
          .select('id')
          .where('created_at', '<=', releasesEnd)
          .limit(batchSize),
      )
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  })

  // The log of delegated actions (delegation/audit.ts), likewise.
  const delegatedEnd = now - (options.delegatedActionRetentionMs ?? DELEGATED_ACTION_RETENTION_MS)
  counts.delegated_actions = await inBatches(batchSize, async () => {
    const result = await db
      .deleteFrom('delegated_actions')
      .where(
        'id',
        'in',
        db
          .selectFrom('delegated_actions')
          .select('id')
          .where('created_at', '<=', delegatedEnd)
          .limit(batchSize),
      )
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  })

  // The ledger of sponsored operations (smart-wallets/sponsored-operations.ts), likewise.
  const sponsoredEnd =
    now - (options.sponsoredOperationRetentionMs ?? SPONSORED_OPERATION_RETENTION_MS)
  counts.sponsored_operations = await inBatches(batchSize, async () => {
    const result = await db
      .deleteFrom('sponsored_operations')
      .where(
        'id',
        'in',
        db
          .selectFrom('sponsored_operations')
          .select('id')
          .where('created_at', '<=', sponsoredEnd)
          .limit(batchSize),
      )
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  })

  // console/sessions.ts: a console session ends 12 h after its last request,
  // or when its admin is revoked (revokeAdmin deletes them too; this catches a
  // revocation that raced a sign-in).
  const consoleIdleEnd = now - CONSOLE_IDLE_MS
  counts.console_sessions = await inBatches(batchSize, async () => {
    const result = await db
      .deleteFrom('console_sessions')
      .where(
        'id_hash',
        'in',
        db
          .selectFrom('console_sessions')
          .select('id_hash')
          .where((eb) =>
            eb.or([
              eb('last_used_at', '<=', consoleIdleEnd),
              eb(
                'admin_id',
                'in',
                eb.selectFrom('admin_credentials').select('id').where('revoked_at', 'is not', null),
              ),
            ]),
          )
          .limit(batchSize),
      )
      .executeTakeFirst()
    return Number(result.numDeletedRows)
  })
  return counts
}

/** Runs `batch` until it deletes fewer than a full batch; the total deleted. */
async function inBatches(batchSize: number, batch: () => Promise<number>): Promise<number> {
  let total = 0
  for (;;) {
    const deleted = await batch()
    total += deleted
    if (deleted < batchSize) return total
  }
}
