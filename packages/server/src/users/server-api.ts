import {
  APP_USERS_PAGE_MAX,
  type AppWallet,
  type ListUsersResponse,
  type LookupUserRequest,
  normalizeEmail,
  type RecoveryMethod,
  type UserWire,
} from '@latchkey/protocol'
import { normalizePhoneNumber } from '@latchkey/protocol/phone'
import type { Kysely, Selectable } from 'kysely'
import { afterInCreationOrder } from '../db/newest-first.ts'
import type { Database, LinkedAccountsTable, UsersTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { canonicalAddress } from '../wallets/service.ts'
import {
  SIWE_ACCOUNT_TYPE,
  SIWS_ACCOUNT_TYPE,
  userWireFromRows,
  WALLET_ACCOUNT_TYPE,
} from './service.ts'

// The reads behind the app-backend routes (users/server-api-routes.ts): every
// one is scoped to the authenticated app, so another app's user is simply not
// there (404 USER_DOES_NOT_EXIST).

type Db = Kysely<Database>

const seconds = (ms: number) => Math.floor(Number(ms) / 1000)

/**
 * Users as the API shows them (the same wire `GET /users/me` answers), in
 * four reads for the whole page rather than three per user.
 */
export async function usersWire(db: Db, users: Selectable<UsersTable>[]): Promise<UserWire[]> {
  if (users.length === 0) return []
  const ids = users.map((u) => u.id)
  const [accounts, factors, secrets] = await Promise.all([
    db
      .selectFrom('linked_accounts')
      .selectAll()
      .where('user_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('mfa_factors')
      .select(['user_id', 'method'])
      .where('user_id', 'in', ids)
      .where('enabled', '=', 1)
      .execute(),
    db
      .selectFrom('wallet_secrets')
      .select(['user_id', 'entropy_id', 'recovery_method'])
      .where('user_id', 'in', ids)
      .execute(),
  ])
  return users.map((user) =>
    userWireFromRows(
      user,
      factors.filter((f) => f.user_id === user.id).map((f) => f.method),
      accounts.filter((a) => a.user_id === user.id),
      new Map(
        secrets
          .filter((s) => s.user_id === user.id)
          .map((s) => [s.entropy_id, s.recovery_method as RecoveryMethod] as const),
      ),
    ),
  )
}

async function userRowOf(db: Db, appId: string, userId: string) {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('app_id', '=', appId)
    .executeTakeFirst()
  if (!row) throw new ApiError('USER_DOES_NOT_EXIST')
  return row
}

/** The app's user by id; 404 USER_DOES_NOT_EXIST when the app has none such. */
export async function getAppUser(db: Db, appId: string, userId: string): Promise<UserWire> {
  const [user] = await usersWire(db, [await userRowOf(db, appId, userId)])
  return user as UserWire
}

/** A page cursor: the last user's creation time and id, opaque to callers. */
const encodeCursor = (user: Selectable<UsersTable>) =>
  Buffer.from(`${Number(user.created_at)}.${user.id}`).toString('base64url')

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8')
  const dot = text.indexOf('.')
  const createdAt = Number(text.slice(0, dot))
  if (dot <= 0 || !Number.isSafeInteger(createdAt) || dot === text.length - 1)
    throw new ApiError('INVALID_PAYLOAD', 'The cursor is not valid.')
  return { createdAt, id: text.slice(dot + 1) }
}

/**
 * The app's users, oldest first (creation time, then id), `limit` a page
 * (at most 100); `next_cursor` continues after the page's last user, so
 * users created meanwhile show up at the end rather than shifting pages.
 */
export async function listAppUsers(
  db: Db,
  appId: string,
  options: { cursor?: string | undefined; limit?: number | undefined },
): Promise<ListUsersResponse> {
  const limit = Math.min(options.limit ?? APP_USERS_PAGE_MAX, APP_USERS_PAGE_MAX)
  let query = db.selectFrom('users').selectAll().where('app_id', '=', appId)
  if (options.cursor) {
    const after = decodeCursor(options.cursor)
    query = query.where(afterInCreationOrder(after))
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute()
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: await usersWire(db, page),
    next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
  }
}

/** The stored account types and identity key a lookup names (users/accounts-wire.ts). */
function lookupKey(body: LookupUserRequest): { types: string[]; identifier: string } {
  if ('email' in body) return { types: ['email'], identifier: normalizeEmail(body.email) }
  if ('phone_number' in body) return { types: ['phone'], identifier: phone(body.phone_number) }
  if ('wallet_address' in body) {
    const address = body.wallet_address
    const external = address.startsWith('0x') ? SIWE_ACCOUNT_TYPE : SIWS_ACCOUNT_TYPE
    return { types: [WALLET_ACCOUNT_TYPE, external], identifier: canonicalAddress(address) }
  }
  const { type, identifier } = body.account
  if (type === 'email') return { types: [type], identifier: normalizeEmail(identifier) }
  if (type === 'phone') return { types: [type], identifier: phone(identifier) }
  return { types: [type], identifier }
}

const phone = (value: string) => {
  const e164 = normalizePhoneNumber(value)
  if (!e164) throw new ApiError('INVALID_PHONE_NUMBER')
  return e164
}

/** The app's user with that email, phone, wallet address or account; 404 USER_DOES_NOT_EXIST. */
export async function lookupAppUser(
  db: Db,
  appId: string,
  body: LookupUserRequest,
): Promise<UserWire> {
  const { types, identifier } = lookupKey(body)
  const account = await db
    .selectFrom('linked_accounts')
    .select('user_id')
    .where('app_id', '=', appId)
    .where('type', 'in', types)
    .where('identifier', '=', identifier)
    .executeTakeFirst()
  if (!account) throw new ApiError('USER_DOES_NOT_EXIST')
  return getAppUser(db, appId, account.user_id)
}

/** An embedded-wallet row as an app backend sees it; null without its secret row (never shown). */
function toAppWallet(
  row: Selectable<LinkedAccountsTable>,
  recovery: Map<string, RecoveryMethod>,
): AppWallet | null {
  const data = JSON.parse(row.data) as Record<string, unknown>
  const secretId = typeof data.secret_id === 'string' ? data.secret_id : ''
  const method = recovery.get(secretId)
  if (!method || (data.chain_type !== 'ethereum' && data.chain_type !== 'solana')) return null
  return {
    id: row.id,
    address: typeof data.address === 'string' ? data.address : row.identifier,
    chain_type: data.chain_type,
    wallet_index: typeof data.wallet_index === 'number' ? data.wallet_index : null,
    entropy_id: typeof data.entropy_id === 'string' ? data.entropy_id : secretId,
    imported: data.imported === true,
    delegated: data.delegated === true,
    recovery_method: method,
    created_at: seconds(row.created_at),
  }
}

/** The user's embedded wallets, oldest first: addresses, chains and ids, never a share. */
export async function listUserWallets(db: Db, appId: string, userId: string): Promise<AppWallet[]> {
  await userRowOf(db, appId, userId)
  const [rows, secrets] = await Promise.all([
    db
      .selectFrom('linked_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('type', '=', WALLET_ACCOUNT_TYPE)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('wallet_secrets')
      .select(['entropy_id', 'recovery_method'])
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .execute(),
  ])
  const recovery = new Map(secrets.map((s) => [s.entropy_id, s.recovery_method] as const))
  return rows.flatMap((row) => toAppWallet(row, recovery) ?? [])
}
