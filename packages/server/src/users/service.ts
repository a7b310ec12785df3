import {
  CONNECTOR_TYPES,
  type ConnectorType,
  type LinkedAccountWire,
  type RecoveryMethod,
  type UserWire,
} from '@latchkey/protocol'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, LinkedAccountsTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { newId, newUserId } from '../ids.ts'
import { byMethodOrder } from '../mfa/factors.ts'
import { assertSignUpAllowed } from './sign-up.ts'

type Db = Kysely<Database> | Transaction<Database>

const seconds = (ms: number) => Math.floor(Number(ms) / 1000)

/** Linked-account type of an embedded wallet (identifier = canonical address). */
export const WALLET_ACCOUNT_TYPE = 'wallet'

/** Linked-account type of an external Ethereum wallet (SIWE); identifier = lowercase address. */
export const SIWE_ACCOUNT_TYPE = 'siwe'

/** Linked-account type of an external Solana wallet (SIWS); identifier = base58 address. */
export const SIWS_ACCOUNT_TYPE = 'siws'

/** Linked-account type of a Farcaster account; identifier = the fid in decimal. */
export const FARCASTER_ACCOUNT_TYPE = 'farcaster'

/**
 * Linked-account type of a passkey (auth/passkey); identifier = the base64url
 * WebAuthn credential id, data = public key, counter and display names.
 */
export const PASSKEY_ACCOUNT_TYPE = 'passkey'

/** Linked-account type of a guest (identifier = SHA-256 of the guest credential). */
export const GUEST_ACCOUNT_TYPE = 'guest'

/** Recovery method by stored entropy id (wallet_secrets.entropy_id). */
export type RecoveryMethods = ReadonlyMap<string, RecoveryMethod>

/**
 * One stored linked account as it travels on the wire; null for a type this
 * server version has no wire shape for (rows written by a newer version), and
 * for a wallet whose secret row is missing (a wallet without its shares is
 * never shown).
 */
export function toLinkedAccountWire(
  row: Selectable<LinkedAccountsTable>,
  recoveryMethods: RecoveryMethods = new Map(),
): LinkedAccountWire | null {
  const data = JSON.parse(row.data) as Record<string, unknown>
  switch (row.type) {
    case WALLET_ACCOUNT_TYPE: {
      const secretId = typeof data.secret_id === 'string' ? data.secret_id : ''
      const recovery = recoveryMethods.get(secretId)
      if (!recovery || (data.chain_type !== 'ethereum' && data.chain_type !== 'solana')) return null
      return {
        type: 'wallet',
        address: typeof data.address === 'string' ? data.address : row.identifier,
        chain_type: data.chain_type,
        wallet_index: typeof data.wallet_index === 'number' ? data.wallet_index : null,
        wallet_client_type: 'latchkey',
        connector_type: 'embedded',
        imported: data.imported === true,
        delegated: data.delegated === true,
        recovery_method: recovery,
        entropy_id: typeof data.entropy_id === 'string' ? data.entropy_id : secretId,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case SIWE_ACCOUNT_TYPE:
    case SIWS_ACCOUNT_TYPE: {
      // External wallets (auth/siwe, auth/siws): identifier = canonical address.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      const connector = text('connector_type')
      return {
        type: 'wallet',
        address: text('address') ?? row.identifier,
        chain_type: row.type === SIWE_ACCOUNT_TYPE ? 'ethereum' : 'solana',
        chain_id: text('chain_id'),
        wallet_client_type: text('wallet_client_type') ?? 'unknown',
        connector_type:
          connector && (CONNECTOR_TYPES as readonly string[]).includes(connector)
            ? (connector as ConnectorType)
            : 'injected',
        wallet_index: null,
        imported: false,
        delegated: false,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case FARCASTER_ACCOUNT_TYPE: {
      // auth/farcaster: identifier = the fid in decimal.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: 'farcaster',
        fid: Number(row.identifier),
        owner_address: text('owner_address') ?? '',
        username: text('username'),
        display_name: text('display_name'),
        bio: text('bio'),
        profile_picture_url: text('pfp_url'),
        signer_public_key: text('signer_public_key'),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case PASSKEY_ACCOUNT_TYPE: {
      // auth/passkey: the public key and counter stay on the server.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: 'passkey',
        credential_id: row.identifier,
        authenticator_name: text('authenticator_name'),
        created_with_browser: text('created_with_browser'),
        created_with_os: text('created_with_os'),
        created_with_device: text('created_with_device'),
        enrolled_in_mfa: data.enrolled_in_mfa === true,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case 'email':
      return {
        type: 'email',
        address: typeof data.address === 'string' ? data.address : row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'phone':
      return {
        type: 'phone',
        number: typeof data.number === 'string' ? data.number : row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'telegram': {
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: 'telegram',
        telegram_user_id: row.identifier,
        first_name: text('first_name'),
        last_name: text('last_name'),
        username: text('username'),
        photo_url: text('photo_url'),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    case 'custom':
      return {
        type: 'custom',
        custom_user_id: row.identifier,
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'guest':
      return {
        type: 'guest',
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    case 'google':
    case 'apple':
    case 'discord':
    case 'github':
    case 'linkedin':
    case 'spotify':
    case 'instagram':
    case 'twitter':
    case 'tiktok':
    case 'line': {
      // OAuth login (auth/oauth): identifier = the provider's subject.
      const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : null)
      return {
        type: row.type,
        subject: row.identifier,
        email: text('email'),
        name: text('name'),
        username: text('username'),
        profile_picture_url: text('picture'),
        verified_at: seconds(row.latest_verified_at),
        first_verified_at: seconds(row.first_verified_at),
        latest_verified_at: seconds(row.latest_verified_at),
      }
    }
    default:
      return null
  }
}

export async function linkedAccountsOf(
  db: Db,
  userId: string,
): Promise<Selectable<LinkedAccountsTable>[]> {
  return db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
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
  const rows = await db
    .selectFrom('users')
    .leftJoin('mfa_factors', (join) =>
      join.onRef('mfa_factors.user_id', '=', 'users.id').on('mfa_factors.enabled', '=', 1),
    )
    .selectAll('users')
    .select('mfa_factors.method as mfa_method')
    .where('users.id', '=', userId)
    .execute()
  const user = rows[0]
  if (!user) throw new ApiError('UNAUTHORIZED')
  const accounts = (await linkedAccountsOf(db, userId)).sort(byCreationThenWalletSlot)
  // Wallets carry their secret's recovery method: one more indexed read, and
  // only for users who have a wallet (the refresh path stays two queries).
  let recoveryMethods: RecoveryMethods | undefined
  if (accounts.some((a) => a.type === WALLET_ACCOUNT_TYPE)) {
    const secrets = await db
      .selectFrom('wallet_secrets')
      .select(['entropy_id', 'recovery_method'])
      .where('user_id', '=', userId)
      .where('app_id', '=', user.app_id)
      .execute()
    recoveryMethods = new Map(secrets.map((s) => [s.entropy_id, s.recovery_method]))
  }
  return {
    id: user.id,
    created_at: seconds(user.created_at),
    linked_accounts: accounts
      .map((a) => toLinkedAccountWire(a, recoveryMethods))
      .filter((a): a is LinkedAccountWire => a !== null),
    mfa_methods: rows
      .flatMap((row) => (row.mfa_method === null ? [] : [row.mfa_method]))
      .sort(byMethodOrder),
    has_accepted_terms: user.has_accepted_terms === 1,
    is_guest: user.is_guest === 1,
  }
}

export async function findAccount(db: Db, appId: string, type: string, identifier: string) {
  return db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('app_id', '=', appId)
    .where('type', '=', type)
    .where('identifier', '=', identifier)
    .executeTakeFirst()
}

export interface AccountInput {
  type: string
  identifier: string
  data: Record<string, unknown>
}

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
  await db
    .insertInto('linked_accounts')
    .values({
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
    .execute()
  if (account.type !== GUEST_ACCOUNT_TYPE && account.type !== WALLET_ACCOUNT_TYPE) {
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
  const userId = newUserId()
  await db.transaction().execute(async (tx) => {
    await assertSignUpAllowed(tx, appId, account)
    await tx
      .insertInto('users')
      .values({ id: userId, app_id: appId, created_at: now, has_accepted_terms: 0, is_guest: 0 })
      .execute()
    await insertAccount(tx, appId, userId, account, now)
  })
  return userId
}

export async function touchAccount(db: Db, accountId: string, now: number): Promise<void> {
  await db
    .updateTable('linked_accounts')
    .set({ latest_verified_at: now })
    .where('id', '=', accountId)
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
    const accounts = await linkedAccountsOf(tx, userId)
    const target = accounts.find((a) => a.type === type && a.identifier === identifier)
    if (!target) throw new ApiError('ACCOUNT_NOT_LINKED')
    if (accounts.filter((a) => a.type !== WALLET_ACCOUNT_TYPE).length <= 1)
      throw new ApiError('CANNOT_UNLINK_LAST_ACCOUNT')
    await tx
      .deleteFrom('linked_accounts')
      .where('id', '=', target.id)
      .where('app_id', '=', appId)
      .execute()
    return getUserWire(tx, userId)
  })
}
