import type { AuthMode, AuthResponse, UserWire } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import type { Database } from '../../db/types.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession } from '../../sessions/service.ts'
import {
  type AccountInput,
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  unlinkAccount,
  WALLET_ACCOUNT_TYPE,
} from '../../users/service.ts'
import { accountTransferOrRefusal } from '../../users/transfer.ts'

/*
 * What SIWE and SIWS share once a wallet proved its address: the login
 * method switch, the request's origin, and the account rules of spec 01 §5
 * (one external wallet per chain type, embedded wallets never log in).
 * Accounts are `siwe` / `siws` rows keyed by the canonical address.
 */

/**
 * WALLET_LOGIN_FAILED ('Could not log in with wallet') with a machine
 * `reason` in details, for any refused proof.
 *
 * @example
 * throw walletLoginFailed('nonce_used')
 */
export function walletLoginFailed(reason: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError('WALLET_LOGIN_FAILED', undefined, { reason, ...details })
}

/** LOGIN_METHOD_NOT_ALLOWED unless the app switched wallet login on (`login_methods.wallet`). */
export function assertWalletLoginAllowed(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.wallet) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

/**
 * The request's Origin, which must be one of the app's exact origins
 * (ORIGIN_NOT_ALLOWED otherwise; the server's own origin, which every route
 * accepts, does not count): the sign-in message's domain and URI are checked
 * against it (security bar 16). A request without one can not be bound to a
 * domain and is refused the same way.
 */
export function appOrigin(app: AppRecord, origin: string | undefined): URL {
  if (!origin || !app.allowedOrigins.includes(origin)) throw new ApiError('ORIGIN_NOT_ALLOWED')
  return new URL(origin)
}

/** An embedded wallet of the app can not log in or be linked as an external one (spec 01 §5). */
export async function assertNotEmbeddedWallet(
  db: Kysely<Database>,
  appId: string,
  identifier: string,
): Promise<void> {
  if (await findAccount(db, appId, WALLET_ACCOUNT_TYPE, identifier))
    throw walletLoginFailed('embedded_wallet')
}

async function refresh(services: Services, accountId: string, account: AccountInput) {
  // Wallet client, connector and (SIWE) chain are those of the latest sign-in.
  await services.db
    .updateTable('linked_accounts')
    .set({ data: JSON.stringify(account.data), latest_verified_at: services.now() })
    .where('id', '=', accountId)
    .execute()
}

/**
 * Logs in the owner of a verified external wallet, or signs up a new user
 * with it (USER_DOES_NOT_EXIST in `no-signup` mode).
 */
export async function loginWithExternalWallet(
  services: Services,
  app: AppRecord,
  account: AccountInput,
  mode: AuthMode,
): Promise<AuthResponse> {
  const existing = await findAccount(services.db, app.id, account.type, account.identifier)
  if (existing) {
    await refresh(services, existing.id, account)
    return startSession(services, app.id, existing.user_id, false)
  }
  if (mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const userId = await createUserWithAccount(services.db, app.id, account, services.now())
    return startSession(services, app.id, userId, true)
  } catch (error) {
    // Two first logins of one address at once: the loser logs in as the winner.
    if (!isUniqueViolation(error)) throw error
    const winner = await findAccount(services.db, app.id, account.type, account.identifier)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/**
 * Links a verified external wallet to the signed-in user: WALLET_ADDRESS_TAKEN
 * when another user has it, WALLET_LINK_LIMIT when the user already has an
 * external wallet of this chain type (one account per type, spec 01 §5).
 * Linking the user's own wallet again refreshes it.
 */
export async function linkExternalWallet(
  services: Services,
  app: AppRecord,
  userId: string,
  account: AccountInput,
): Promise<UserWire> {
  const owner = await findAccount(services.db, app.id, account.type, account.identifier)
  if (owner) {
    if (owner.user_id !== userId)
      // Another user's only login method may move here (docs/access-control.md).
      throw await accountTransferOrRefusal(
        services,
        app,
        userId,
        owner,
        account,
        'WALLET_ADDRESS_TAKEN',
      )
    await refresh(services, owner.id, account)
    return getUserWire(services.db, userId)
  }
  const accounts = await linkedAccountsOf(services.db, userId)
  if (accounts.some((a) => a.type === account.type)) throw new ApiError('WALLET_LINK_LIMIT')
  try {
    await insertAccount(services.db, app.id, userId, account, services.now())
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('WALLET_ADDRESS_TAKEN')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes an external wallet from the signed-in user, who must keep one login method. */
export async function unlinkExternalWallet(
  services: Services,
  app: AppRecord,
  userId: string,
  type: string,
  identifier: string,
): Promise<UserWire> {
  return unlinkAccount(services.db, app.id, userId, type, identifier)
}
