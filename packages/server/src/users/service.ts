import type { LinkedAccountWire, RecoveryMethod, UserWire } from '@latchkey/protocol'
import type { Kysely, Selectable, Transaction } from 'kysely'
import { isPostgres } from '../db/dialect.ts'
import {
  CONNECTION_BUSY,
  inGroupCommit,
  type SqliteHandle,
  sqliteHandleOf,
} from '../db/sqlite-sync.ts'
import type { Database, LinkedAccountsTable, UsersTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { newId, newUserId } from '../ids.ts'
import { byMethodOrder } from '../mfa/order.ts'
import { enqueueWebhookEvent, enqueueWebhookEventSync } from '../webhooks/outbox.ts'
import {
  GUEST_ACCOUNT_TYPE,
  isLoginMethodType,
  type RecoveryMethods,
  toLinkedAccountWire,
  WALLET_ACCOUNT_TYPE,
} from './accounts-wire.ts'
import { assertSignUpAllowed, assertSignUpAllowedSync } from './sign-up.ts'
import { type FirstSessionRow, signUpOnPostgres } from './sign-up-pg.ts'
import {
  accountByIdentity,
  insertLinkedAccount,
  insertUser,
  linkedAccountsOfUser,
  touchLinkedAccount,
  userWithMfaMethods,
  walletRecoveryMethods,
} from './statements.ts'

type Db = Kysely<Database> | Transaction<Database>

const seconds = (ms: number) => Math.floor(Number(ms) / 1000)

export {
  FARCASTER_ACCOUNT_TYPE,
  GUEST_ACCOUNT_TYPE,
  PASSKEY_ACCOUNT_TYPE,
  type RecoveryMethods,
  SIWE_ACCOUNT_TYPE,
  SIWS_ACCOUNT_TYPE,
  toLinkedAccountWire,
  WALLET_ACCOUNT_TYPE,
} from './accounts-wire.ts'

export async function linkedAccountsOf(
  db: Db,
  userId: string,
): Promise<Selectable<LinkedAccountsTable>[]> {
  return linkedAccountsOfUser.rows(db, { userId })
}

/**
 * Accounts in creation order; wallets stored in the same millisecond (one
 * create request) keep a stable order: Ethereum before Solana, then by index.
 */
function byCreationThenWalletSlot(
  a: Selectable<LinkedAccountsTable>,
  b: Selectable<LinkedAccountsTable>,
): number {
  const time = Number(a.created_at) - Number(b.created_at)
  if (time !== 0 || a.type !== WALLET_ACCOUNT_TYPE || b.type !== WALLET_ACCOUNT_TYPE) return time
  // HD wallets before imported keys, Ethereum before Solana, then by index (≤ 1000).
  const slot = (row: Selectable<LinkedAccountsTable>) => {
    const data = JSON.parse(row.data) as { chain_type?: string; wallet_index?: number | null }
    const imported = typeof data.wallet_index !== 'number'
    return (
      (imported ? 2000 : 0) + (data.chain_type === 'ethereum' ? 0 : 1000) + (data.wallet_index ?? 0)
    )
  }
  return slot(a) - slot(b)
}

/** The user as the API returns it; throws UNAUTHORIZED when the user is gone. */
export async function getUserWire(db: Db, userId: string): Promise<UserWire> {
  // One row per enabled MFA factor (at most one per method), or one with a null method.
  const rows = await userWithMfaMethods.rows(db, { userId })
  const user = rows[0]
  if (!user) throw new ApiError('UNAUTHORIZED')
  const accounts = await linkedAccountsOf(db, userId)
  // Wallets carry their secret's recovery method: one more indexed read, and
  // only for users who have a wallet (the refresh path stays two queries).
  const secrets = hasWallet(accounts)
    ? await walletRecoveryMethods.rows(db, { userId, appId: user.app_id })
    : []
  return userWireOfReads(rows, accounts, secrets)
}

/**
 * {@link getUserWire}, synchronously, on SQLite's connection: the same
 * statements, for a caller inside db/sqlite-sync.ts `runSqliteTransaction`.
 */
export function getUserWireSync(
  db: Kysely<Database>,
  handle: SqliteHandle,
  userId: string,
): UserWire {
  const rows = userWithMfaMethods.rowsSync(db, handle, { userId })
  const user = rows[0]
  if (!user) throw new ApiError('UNAUTHORIZED')
  const accounts = linkedAccountsOfUser.rowsSync(db, handle, { userId })
  const secrets = hasWallet(accounts)
    ? walletRecoveryMethods.rowsSync(db, handle, { userId, appId: user.app_id })
    : []
  return userWireOfReads(rows, accounts, secrets)
}

const hasWallet = (accounts: Selectable<LinkedAccountsTable>[]) =>
  accounts.some((a) => a.type === WALLET_ACCOUNT_TYPE)

function userWireOfReads(
  rows: Array<Selectable<UsersTable> & { mfa_method: UserWire['mfa_methods'][number] | null }>,
  accounts: Selectable<LinkedAccountsTable>[],
  secrets: Array<{ entropy_id: string; recovery_method: RecoveryMethod }>,
): UserWire {
  const mfaMethods = rows.flatMap((row) => (row.mfa_method === null ? [] : [row.mfa_method]))
  const recoveryMethods = new Map(secrets.map((s) => [s.entropy_id, s.recovery_method] as const))
  return userWireFromRows(rows[0] as Selectable<UsersTable>, mfaMethods, accounts, recoveryMethods)
}

/**
 * The user as {@link getUserWire} returns it, from rows read elsewhere (the
 * one-statement refresh on PostgreSQL, sessions/rotate-pg.ts): the accounts
 * oldest first as `linkedAccountsOfUser` orders them, the enabled MFA
 * methods, and the recovery method of each of the user's wallet secrets.
 */
export function userWireFromRows(
  user: Selectable<UsersTable>,
  mfaMethods: UserWire['mfa_methods'],
  accounts: Selectable<LinkedAccountsTable>[],
  recoveryMethods: RecoveryMethods,
): UserWire {
  const sorted = accounts.sort(byCreationThenWalletSlot)
  return toUserWire(user, mfaMethods, sorted, hasWallet(sorted) ? recoveryMethods : undefined)
}

/** The user as the API returns it, from its rows (accounts in display order). */
function toUserWire(
  user: Selectable<UsersTable>,
  mfaMethods: UserWire['mfa_methods'],
  accounts: Selectable<LinkedAccountsTable>[],
  recoveryMethods?: RecoveryMethods,
): UserWire {
  return {
    id: user.id,
    created_at: seconds(user.created_at),
    linked_accounts: accounts
      .map((a) => toLinkedAccountWire(a, recoveryMethods))
      .filter((a): a is LinkedAccountWire => a !== null),
    mfa_methods: mfaMethods.sort(byMethodOrder),
    has_accepted_terms: user.has_accepted_terms === 1,
    is_guest: user.is_guest === 1,
  }
}

export async function findAccount(db: Db, appId: string, type: string, identifier: string) {
  return accountByIdentity.first(db, { appId, type, identifier })
}

export interface AccountInput {
  type: string
  identifier: string
  data: Record<string, unknown>
}

/** A new linked account's row, verified now. */
const accountRow = (appId: string, userId: string, account: AccountInput, now: number) => ({
  id: newId(),
  user_id: userId,
  app_id: appId,
  type: account.type,
  identifier: account.identifier,
  data: JSON.stringify(account.data),
  created_at: now,
  first_verified_at: now,
  latest_verified_at: now,
})

/**
 * Inserts a linked account; a unique violation (taken identifier) propagates.
 * A login method linked to a guest upgrades it (security bar 37): same user
 * id, `is_guest` cleared, and the guest account removed so the guest
 * credential left on the device no longer opens the now real account.
 * Embedded wallets are not login methods and upgrade nothing.
 */
export async function insertAccount(
  db: Db,
  appId: string,
  userId: string,
  account: AccountInput,
  now: number,
): Promise<void> {
  // The insert, the upgrade and the guest account's removal are one change: a
  // crash between them would leave a guest with a login method, or a real
  // user whom the guest credential still opens (faults.sigkill-no-half-writes.test.ts).
  if (!db.isTransaction)
    return db.transaction().execute((tx) => insertAccount(tx, appId, userId, account, now))
  const row = accountRow(appId, userId, account, now)
  await db.insertInto('linked_accounts').values(row).execute()
  if (account.type !== GUEST_ACCOUNT_TYPE && isLoginMethodType(account.type)) {
    const upgraded = await db
      .updateTable('users')
      .set({ is_guest: 0 })
      .where('id', '=', userId)
      .where('is_guest', '=', 1)
      .executeTakeFirst()
    if (Number(upgraded.numUpdatedRows) > 0)
      await db
        .deleteFrom('linked_accounts')
        .where('user_id', '=', userId)
        .where('type', '=', GUEST_ACCOUNT_TYPE)
        .execute()
    // Webhook (docs/webhooks.md): queued with the link, after a guest's upgrade.
    await enqueueWebhookEvent(
      db,
      appId,
      'user.linked_account',
      async () => ({
        user: await getUserWire(db, userId),
        account: toLinkedAccountWire(row) as LinkedAccountWire,
      }),
      now,
    )
  }
}

/**
 * Creates a user and its first account in one transaction, after the
 * sign-up gates (users/sign-up.ts: allowlist, user limit) passed in it.
 */
export async function createUserWithAccount(
  db: Kysely<Database>,
  appId: string,
  account: AccountInput,
  now: number,
): Promise<string> {
  return (await createUser(db, appId, account, now)).userId
}

/**
 * {@link createUserWithAccount}, with `within` run in the same transaction
 * (a sign-up's first session: sessions/service.ts startSessionForNewUser).
 * Returns the new user as the API shows it, made from the rows just written:
 * nobody else can have changed a user no token names yet.
 */
export async function createUser(
  db: Kysely<Database>,
  appId: string,
  account: AccountInput,
  now: number,
  within?: WrittenWithUser,
): Promise<{ userId: string; user: UserWire }> {
  const userId = newUserId()
  const user = { id: userId, app_id: appId, created_at: now, has_accepted_terms: 0, is_guest: 0 }
  const row = accountRow(appId, userId, account, now)
  const made = { userId, user: toUserWire(user, [], [row]) }
  // PostgreSQL: one statement when the app has no sign-up gate (sign-up-pg.ts).
  if (isPostgres(db) && !db.isTransaction) {
    const rows = { user, account: row, session: within?.row, event: { user: made.user } }
    if (await signUpOnPostgres(db, rows)) return made
  }
  // SQLite: synchronously, sharing a commit with the sign-ups and refreshes of this turn.
  const handle = sqliteHandleOf(db)
  if (handle) {
    const written = await inGroupCommit(handle, () => {
      assertSignUpAllowedSync(db, handle, appId, account)
      insertUser.rowsSync(db, handle, user)
      insertLinkedAccount.rowsSync(db, handle, row)
      enqueueWebhookEventSync(db, handle, appId, 'user.created', { user: made.user }, now)
      within?.writeSync(db, handle, userId)
    })
    if (written !== CONNECTION_BUSY) return made
  }
  await db.transaction().execute(async (tx) => {
    await assertSignUpAllowed(tx, appId, account)
    await insertUser.execute(tx, user)
    // Not insertAccount: a user made here is no guest, so there is nothing to upgrade.
    await insertLinkedAccount.execute(tx, row)
    await enqueueWebhookEvent(tx, appId, 'user.created', { user: made.user }, now)
    await within?.write(tx, userId)
  })
  return made
}

/** Rows written with a new user, in its transaction (a sign-up's first session). */
export interface WrittenWithUser {
  /** The session's row, for the one-statement sign-up on PostgreSQL (sign-up-pg.ts). */
  row: FirstSessionRow
  write(tx: Transaction<Database>, userId: string): Promise<void>
  /** The same, synchronously on SQLite's connection (db/sqlite-sync.ts). */
  writeSync(db: Kysely<Database>, handle: SqliteHandle, userId: string): void
}

export async function touchAccount(db: Db, accountId: string, now: number): Promise<void> {
  await touchLinkedAccount.execute(db, { id: accountId, now })
}

/**
 * Takes the user's row lock until the transaction ends: a no-op write, which
 * PostgreSQL holds until commit and SQLite serialises with every writer.
 * Changes that read the user's accounts and then write (a passkey link under
 * the limit, MFA passkeys and their factor) take it first, so concurrent
 * ones run one after the other.
 */
export async function lockUser(tx: Transaction<Database>, userId: string): Promise<void> {
  await tx
    .updateTable('users')
    .set((eb) => ({ is_guest: eb.ref('is_guest') }))
    .where('id', '=', userId)
    .execute()
}

/**
 * Removes the user's `type` account `identifier` inside the caller's
 * transaction (see {@link unlinkAccount}): unknown → ACCOUNT_NOT_LINKED; the
 * user must keep one login method → CANNOT_UNLINK_LAST_ACCOUNT.
 */
export async function removeAccount(
  tx: Transaction<Database>,
  appId: string,
  userId: string,
  type: string,
  identifier: string,
): Promise<void> {
  const accounts = await linkedAccountsOf(tx, userId)
  const target = accounts.find((a) => a.type === type && a.identifier === identifier)
  if (!target) throw new ApiError('ACCOUNT_NOT_LINKED')
  if (accounts.filter((a) => isLoginMethodType(a.type)).length <= 1)
    throw new ApiError('CANNOT_UNLINK_LAST_ACCOUNT')
  await tx
    .deleteFrom('linked_accounts')
    .where('id', '=', target.id)
    .where('app_id', '=', appId)
    .execute()
}

/**
 * Removes the user's `type` account `identifier` in one transaction: unknown
 * → ACCOUNT_NOT_LINKED; the user must keep one login method (embedded
 * wallets are not login methods, spec 01 §6) → CANNOT_UNLINK_LAST_ACCOUNT.
 */
export async function unlinkAccount(
  db: Kysely<Database>,
  appId: string,
  userId: string,
  type: string,
  identifier: string,
): Promise<UserWire> {
  return db.transaction().execute(async (tx) => {
    await removeAccount(tx, appId, userId, type, identifier)
    return getUserWire(tx, userId)
  })
}
