import type { MfaMethod } from '@latchkey/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { AppRecord } from '../apps/service.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { byMethodOrder } from './order.ts'

/*
 * A user's MFA factors (table mfa_factors, migration 013). A factor's secret
 * — the TOTP secret, the SMS factor's phone number — is sealed at rest like
 * the wallet shares (security bar 45): AES-256-GCM under the master key's
 * `totp-secrets` key (named for the first factor; every method's secret uses
 * it), the row (app, user, factor id, method) bound as associated data, so a
 * secret copied to another row, user or method never opens. A passkey factor
 * has no secret: its passkeys are the user's passkey accounts flagged
 * `enrolled_in_mfa` (mfa/passkey.ts). Nothing here logs a secret.
 */

type Db = Kysely<Database> | Transaction<Database>

export { byMethodOrder, MFA_METHOD_ORDER } from './order.ts'

/** The app offers `method` (its `mfa_methods` setting), or 403 MFA_METHOD_NOT_ALLOWED. */
export function assertMethodAllowed(app: AppRecord, method: MfaMethod): void {
  if (!(app.settings.mfa_methods ?? []).includes(method))
    throw new ApiError('MFA_METHOD_NOT_ALLOWED')
}

/** Which row a sealed secret belongs to. */
export interface FactorRef {
  appId: string
  userId: string
  factorId: string
  method: MfaMethod
}

const factorAad = (ref: FactorRef) =>
  JSON.stringify(['mfa_factors', ref.appId, ref.userId, ref.factorId, ref.method])

/** Seals a factor's secret for its row. */
export function sealFactorSecret(services: Services, ref: FactorRef, secret: string): string {
  return services.secrets.encrypt('totp-secrets', factorAad(ref), secret)
}

/**
 * Opens a factor's sealed secret. A blob that fails to authenticate
 * (tampered, moved, other master key) is logged by kind only and answered as
 * 500 INTERNAL_ERROR: never used, never echoed.
 */
export function openFactorSecret(services: Services, ref: FactorRef, sealed: string): string {
  try {
    return services.secrets.decrypt('totp-secrets', factorAad(ref), sealed).toString('utf8')
  } catch {
    services.logger.error(
      `MFA secret failed to unseal (app ${ref.appId}, method ${ref.method}): tampered, moved or wrong master key`,
    )
    throw new ApiError('INTERNAL_ERROR')
  }
}

/** The user's enabled MFA methods, in {@link MFA_METHOD_ORDER}. */
export async function enabledMfaMethods(db: Db, userId: string): Promise<MfaMethod[]> {
  const rows = await db
    .selectFrom('mfa_factors')
    .select('method')
    .where('user_id', '=', userId)
    .where('enabled', '=', 1)
    .execute()
  return rows.map((r) => r.method).sort(byMethodOrder)
}

/** The user's enabled factor of `method`, if any. */
export async function findEnabledFactor(db: Db, userId: string, method: MfaMethod) {
  return db
    .selectFrom('mfa_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method', '=', method)
    .where('enabled', '=', 1)
    .executeTakeFirst()
}

/**
 * The phone number (E.164) of the user's enabled SMS factor, unsealed; null
 * when the user has none.
 *
 * @example
 * if ((await enrolledSmsPhone(services, userId)) === '+14155552671') …
 */
export async function enrolledSmsPhone(services: Services, userId: string): Promise<string | null> {
  const factor = await findEnabledFactor(services.db, userId, 'sms')
  if (!factor || factor.secret === null) return null
  const ref = { appId: factor.app_id, userId, factorId: factor.id, method: 'sms' as const }
  return openFactorSecret(services, ref, factor.secret)
}
