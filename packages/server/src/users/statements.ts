import type { Insertable } from 'kysely'
import { precompile } from '../db/precompiled.ts'
import type { LinkedAccountsTable, UsersTable } from '../db/types.ts'

// The statements of the user reads every login and refresh makes, and of a
// sign-up, compiled once (db/precompiled.ts).

/** The user's row, once per enabled MFA factor (at most one per method), or once with a null method. */
export const userWithMfaMethods = precompile<{ userId: string }>()((db, param) =>
  db
    .selectFrom('users')
    .leftJoin('mfa_factors', (join) =>
      join.onRef('mfa_factors.user_id', '=', 'users.id').on('mfa_factors.enabled', '=', 1),
    )
    .selectAll('users')
    .select('mfa_factors.method as mfa_method')
    .where('users.id', '=', param('userId')),
)

/** The user's linked accounts, oldest first. */
export const linkedAccountsOfUser = precompile<{ userId: string }>()((db, param) =>
  db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('user_id', '=', param('userId'))
    .orderBy('created_at')
    .orderBy('id'),
)

/** The recovery method of each of the user's wallet secrets in an app. */
export const walletRecoveryMethods = precompile<{ userId: string; appId: string }>()((db, param) =>
  db
    .selectFrom('wallet_secrets')
    .select(['entropy_id', 'recovery_method'])
    .where('user_id', '=', param('userId'))
    .where('app_id', '=', param('appId')),
)

/** The account of an app with this type and identifier (one at most: a unique key). */
export const accountByIdentity = precompile<{ appId: string; type: string; identifier: string }>()(
  (db, param) =>
    db
      .selectFrom('linked_accounts')
      .selectAll()
      .where('app_id', '=', param('appId'))
      .where('type', '=', param('type'))
      .where('identifier', '=', param('identifier')),
)

/** Records that the account was just proven again (a login with it). */
export const touchLinkedAccount = precompile<{ id: string; now: number }>()((db, param) =>
  db
    .updateTable('linked_accounts')
    .set({ latest_verified_at: param('now') })
    .where('id', '=', param('id')),
)

/** A new user (a sign-up). */
export const insertUser = precompile<Insertable<UsersTable>>()((db, param) =>
  db.insertInto('users').values({
    id: param('id'),
    app_id: param('app_id'),
    created_at: param('created_at'),
    has_accepted_terms: param('has_accepted_terms'),
    is_guest: param('is_guest'),
  }),
)

/** A new linked account row, every column given. */
export const insertLinkedAccount = precompile<Insertable<LinkedAccountsTable>>()((db, param) =>
  db.insertInto('linked_accounts').values({
    id: param('id'),
    user_id: param('user_id'),
    app_id: param('app_id'),
    type: param('type'),
    identifier: param('identifier'),
    data: param('data'),
    created_at: param('created_at'),
    first_verified_at: param('first_verified_at'),
    latest_verified_at: param('latest_verified_at'),
  }),
)

/** An app's settings (JSON), for the sign-up gates (sign-up.ts). */
export const appSettingsOf = precompile<{ appId: string }>()((db, param) =>
  db.selectFrom('apps').select('settings').where('id', '=', param('appId')),
)

/** How many users an app has (the user limit, user-limit.ts). */
export const userCountOfApp = precompile<{ appId: string }>()((db, param) =>
  db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('app_id', '=', param('appId')),
)
