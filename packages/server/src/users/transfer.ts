import { type AccountTransferOffer, OAUTH_PROVIDERS, type UserWire } from '@latchkey/protocol'
import { PostgresAdapter, type Selectable } from 'kysely'
import type { AppRecord } from '../apps/service.ts'
import { affected } from '../db/connect.ts'
import type { LinkedAccountsTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { newSecret, sha256 } from '../ids.ts'
import { isLoginMethodType } from './accounts-wire.ts'
import { deleteUser } from './delete.ts'
import {
  type AccountInput,
  GUEST_ACCOUNT_TYPE,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  SIWE_ACCOUNT_TYPE,
  SIWS_ACCOUNT_TYPE,
  WALLET_ACCOUNT_TYPE,
} from './service.ts'

/*
 * Account transfer (spec 02 "Account transfer", docs/access-control.md):
 * a login method proven during a link but owned by another user V moves to
 * the signed-in user U, and V — whose only login method it was — is deleted.
 */

/** How long a transfer offer stays usable. */
export const ACCOUNT_TRANSFER_TTL_MS = 10 * 60_000

/**
 * Account types that never transfer (spec 02 §5): custom JWT and guest
 * accounts are not proven by a link, passkeys are device credentials, and
 * embedded wallets are not login methods (spec 01 §6).
 */
export const NON_TRANSFERABLE_TYPES: ReadonlySet<string> = new Set([
  'custom',
  GUEST_ACCOUNT_TYPE,
  'passkey',
  WALLET_ACCOUNT_TYPE,
])

/** The refusal a link answers when no transfer is offered. */
export type LinkRefusal = 'ACCOUNT_ALREADY_LINKED' | 'WALLET_ADDRESS_TAKEN'

const isLoginMethod = (row: Selectable<LinkedAccountsTable>) => isLoginMethodType(row.type)

const text = (data: Record<string, unknown>, key: string) =>
  typeof data[key] === 'string' && data[key] !== '' ? (data[key] as string) : null

/** What the transfer screen names the account by. */
function displayNameOf(account: AccountInput): string {
  const d = account.data
  switch (account.type) {
    case 'email':
      return text(d, 'address') ?? account.identifier
    case 'phone':
      return text(d, 'number') ?? account.identifier
    case SIWE_ACCOUNT_TYPE:
    case SIWS_ACCOUNT_TYPE:
      return text(d, 'address') ?? account.identifier
    case 'farcaster':
      return text(d, 'username') ?? `fid ${account.identifier}`
    case 'telegram':
      return text(d, 'username') ?? text(d, 'first_name') ?? account.identifier
    default:
      // OAuth: the provider's (verified) email, else its username or name.
      return text(d, 'email') ?? text(d, 'username') ?? text(d, 'name') ?? account.identifier
  }
}

/** V's embedded wallet for "Check assets first": Ethereum first, else Solana, lowest index. */
function embeddedWalletOf(
  accounts: Selectable<LinkedAccountsTable>[],
): AccountTransferOffer['other_user'] {
  const wallets = accounts
    .filter((a) => a.type === WALLET_ACCOUNT_TYPE)
    .map((a) => JSON.parse(a.data) as Record<string, unknown>)
    .filter((d) => d.chain_type === 'ethereum' || d.chain_type === 'solana')
    .sort(
      (a, b) =>
        (a.chain_type === 'ethereum' ? 0 : 1) - (b.chain_type === 'ethereum' ? 0 : 1) ||
        Number(a.wallet_index ?? 1e9) - Number(b.wallet_index ?? 1e9),
    )
  const first = wallets[0]
  if (!first) return { embedded_wallet_address: null, embedded_wallet_chain_type: null }
  return {
    embedded_wallet_address: text(first, 'address'),
    embedded_wallet_chain_type: first.chain_type as 'ethereum' | 'solana',
  }
}

/**
 * The answer to a link whose account (proven by this request: code,
 * signature, OAuth code…) is owned by another user: ACCOUNT_TRANSFER_REQUIRED
 * with a transfer offer when the account can move, else `refusal`. Call it
 * only after the proof verified; throw what it returns.
 *
 * An offer is made when the owner V is not the caller, the type transfers
 * (not custom, guest, passkey or an embedded wallet), the account is V's
 * only login method (V's embedded wallets go with V), and the caller has no
 * account of this type yet. Its nonce (256 random bits) is stored hashed,
 * single-use, for 10 minutes, bound to app, caller, V, type, identifier and
 * the proven account data.
 *
 * @example
 * if (owner && owner.user_id !== userId)
 *   throw await accountTransferOrRefusal(services, app, userId, owner, account, 'ACCOUNT_ALREADY_LINKED')
 */
export async function accountTransferOrRefusal(
  services: Services,
  app: AppRecord,
  userId: string,
  owner: Selectable<LinkedAccountsTable>,
  account: AccountInput,
  refusal: LinkRefusal,
): Promise<ApiError> {
  const fromUserId = owner.user_id
  if (fromUserId === userId || NON_TRANSFERABLE_TYPES.has(account.type))
    return new ApiError(refusal)
  const [theirs, mine] = await Promise.all([
    linkedAccountsOf(services.db, fromUserId),
    linkedAccountsOf(services.db, userId),
  ])
  const theirLogins = theirs.filter(isLoginMethod)
  if (theirLogins.length !== 1 || theirLogins[0]?.id !== owner.id) return new ApiError(refusal)
  if (mine.some((a) => a.type === account.type)) return new ApiError(refusal)

  const nonce = newSecret()
  const now = services.now()
  await services.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('account_transfers').where('expires_at', '<=', now).execute()
    await tx
      .insertInto('account_transfers')
      .values({
        nonce_hash: sha256(nonce),
        app_id: app.id,
        user_id: userId,
        from_user_id: fromUserId,
        account_type: account.type,
        identifier: account.identifier,
        data: JSON.stringify(account.data),
        created_at: now,
        expires_at: now + ACCOUNT_TRANSFER_TTL_MS,
        used_at: null,
      })
      .execute()
  })
  const offer: AccountTransferOffer = {
    nonce,
    account: {
      type: account.type,
      display_name: displayNameOf(account),
      ...((OAUTH_PROVIDERS as readonly string[]).includes(account.type)
        ? { subject: account.identifier }
        : {}),
    },
    other_user: embeddedWalletOf(theirs),
  }
  return new ApiError('ACCOUNT_TRANSFER_REQUIRED', undefined, offer)
}

export interface TransferAccountInput {
  nonce: string
  /** The linked-account type the route moves (an OAuth provider for oauth/transfer). */
  type: string
  /** The account's identifier, normalised as its login method keys it. */
  identifier: string
}

/**
 * Carries out a transfer offer for the signed-in user, in one transaction:
 * consumes the nonce (one conditional UPDATE; unknown, used, expired, or
 * issued to another user, app, type or identifier → TRANSFER_EXPIRED),
 * checks the account is still the other user's only login method
 * (TRANSFER_NOT_ALLOWED) and that the caller still has room for it, deletes
 * the other user (its accounts, embedded wallets, sessions and refresh
 * tokens go with it), and links the account — with the data proven when
 * the offer was made — to the caller. Returns the caller.
 *
 * @example
 * const user = await transferAccount(services, app, auth.userId, { nonce, type: 'email', identifier: 'a@b.co' })
 */
export async function transferAccount(
  services: Services,
  app: AppRecord,
  userId: string,
  input: TransferAccountInput,
): Promise<UserWire> {
  if (NON_TRANSFERABLE_TYPES.has(input.type)) throw new ApiError('TRANSFER_NOT_ALLOWED')
  const now = services.now()
  const nonceHash = sha256(input.nonce)
  const user = await services.db.transaction().execute(async (tx) => {
    const consumed = await tx
      .updateTable('account_transfers')
      .set({ used_at: now })
      .where('nonce_hash', '=', nonceHash)
      .where('app_id', '=', app.id)
      .where('user_id', '=', userId)
      .where('account_type', '=', input.type)
      .where('identifier', '=', input.identifier)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    if (affected(consumed) !== 1) throw new ApiError('TRANSFER_EXPIRED')
    const offer = await tx
      .selectFrom('account_transfers')
      .select(['from_user_id', 'data'])
      .where('nonce_hash', '=', nonceHash)
      .executeTakeFirstOrThrow()
    const fromUserId = offer.from_user_id

    // Postgres: hold V's row so V can not link a new login method (its
    // foreign-key check waits on this lock) between the check and the delete.
    // SQLite runs one write transaction at a time.
    let fromUser = tx.selectFrom('users').select('id').where('id', '=', fromUserId)
    if (tx.getExecutor().adapter instanceof PostgresAdapter) fromUser = fromUser.forUpdate()
    if (!(await fromUser.executeTakeFirst())) throw new ApiError('TRANSFER_EXPIRED')

    const theirLogins = (await linkedAccountsOf(tx, fromUserId)).filter(isLoginMethod)
    const only = theirLogins[0]
    if (
      theirLogins.length !== 1 ||
      only?.type !== input.type ||
      only.identifier !== input.identifier
    )
      throw new ApiError('TRANSFER_NOT_ALLOWED')
    const mine = await linkedAccountsOf(tx, userId)
    if (mine.some((a) => a.type === input.type))
      throw input.type === SIWE_ACCOUNT_TYPE || input.type === SIWS_ACCOUNT_TYPE
        ? new ApiError('WALLET_LINK_LIMIT')
        : new ApiError('CANNOT_LINK_MORE_OF_TYPE')

    // Cascades: linked accounts, wallet secrets, sessions → refresh tokens,
    // recovery and OAuth states, passkey challenges, this offer (delete.ts).
    await deleteUser(tx, { userId: fromUserId, appId: app.id })
    await insertAccount(
      tx,
      app.id,
      userId,
      {
        type: input.type,
        identifier: input.identifier,
        data: JSON.parse(offer.data) as Record<string, unknown>,
      },
      now,
    )
    return getUserWire(tx, userId)
  })
  services.logger.info(
    `account transfer: a ${input.type} account moved, its user deleted (app ${app.id})`,
  )
  return user
}
