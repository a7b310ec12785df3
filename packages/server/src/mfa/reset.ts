import type { MfaMethod } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { countLiveSessions } from '../sessions/live.ts'
import { byMethodOrder } from './factors.ts'
import { clearPasskeysFromMfa } from './passkey.ts'

/** What an MFA reset removes. */
export interface MfaResetSummary {
  appId: string
  /** The enabled methods removed. */
  methods: MfaMethod[]
  /** Live sessions ended (not revoked, not expired). */
  liveSessions: number
}

/** What {@link resetUserMfa} would remove; null for an unknown user. */
export async function summarizeMfaReset(
  db: Kysely<Database>,
  userId: string,
  now: number,
): Promise<MfaResetSummary | null> {
  const user = await db
    .selectFrom('users')
    .select('app_id')
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!user) return null
  const factors = await db
    .selectFrom('mfa_factors')
    .select('method')
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .execute()
  const liveSessions = await countLiveSessions(db, userId, now)
  return {
    appId: user.app_id,
    methods: factors.map((f) => f.method).sort(byMethodOrder),
    liveSessions,
  }
}

/**
 * The operator's reset for a user who lost their only factor (docs/mfa.md
 * "Losing a factor"), in one transaction: every MFA factor of the user
 * (pending setups included; passkeys leave MFA and stay linked), every
 * verification and the attempt window go, and every session of the user is
 * revoked, so the account is used without
 * MFA only after a fresh login. The operator must have checked who asks: the
 * reset takes away the wallet's second factor.
 *
 * @example
 * await resetUserMfa(db, 'did:latchkey:…', Date.now())
 */
export async function resetUserMfa(
  db: Kysely<Database>,
  userId: string,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await clearPasskeysFromMfa(tx, userId)
    await tx.deleteFrom('mfa_factors').where('user_id', '=', userId).execute()
    await tx.deleteFrom('mfa_verifications').where('user_id', '=', userId).execute()
    await tx.deleteFrom('mfa_attempts').where('user_id', '=', userId).execute()
    await tx
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute()
  })
}
