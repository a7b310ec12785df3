import type { Transaction } from 'kysely'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'

/**
 * USER_LIMIT_REACHED when the app already has `maxUsers` users (test apps,
 * spec 02 "Allowlist and limit screens"; docs/access-control.md "User
 * limit"). Call it inside the transaction that inserts the user, after the
 * app row is locked (users/sign-up.ts), so the count and the insert agree.
 */
export async function assertUnderUserLimit(
  tx: Transaction<Database>,
  appId: string,
  maxUsers: number | null | undefined,
): Promise<void> {
  if (maxUsers === null || maxUsers === undefined) return
  const row = await tx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('app_id', '=', appId)
    .executeTakeFirstOrThrow()
  if (Number(row.n) >= maxUsers) throw new ApiError('USER_LIMIT_REACHED')
}

/** Checks `settings.max_users` when an app is created or updated (a whole number ≥ 0, or null). */
export function assertMaxUsersSetting(value: unknown): void {
  if (value === null || value === undefined) return
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new Error('Invalid max_users: a whole number of users (0 or more), or null for no limit')
}
