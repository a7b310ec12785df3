import type { ChainType, DelegateWalletRequest, UserWire } from '@latchkey/protocol'
import {
  deriveEthereumAccount,
  deriveSolanaAccount,
  reconstructAndVerify,
  sameEntropyId,
  wipeSecret,
} from '@latchkey/protocol/keys'
import type { Kysely, Selectable, Transaction } from 'kysely'
import type { Database, LinkedAccountsTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { getUserWire, WALLET_ACCOUNT_TYPE } from '../users/service.ts'
import { canonicalAddress, unseal } from '../wallets/service.ts'
import { delegationKey, openSealedShare } from './key.ts'
import type { WalletDelegationsTable } from './tables.ts'

/*
 * Delegated wallets (docs/delegated-actions.md). The enclave hands the server
 * the wallet's device share sealed to the delegation key; the server opens it,
 * checks that with the auth share it rebuilds THIS wallet, and stores it
 * sealed again at rest (purpose delegated-shares, AAD binding app, user,
 * address and column: a blob moved to another row fails to open). While the
 * row exists the server can rebuild the key, for one request at a time, in
 * memory only. Revoking deletes the rows (not a flag).
 */

const PURPOSE = 'delegated-shares'

/** Associated data of a delegated share: its row and column. */
export const delegatedShareAad = (appId: string, userId: string, address: string) =>
  JSON.stringify(['wallet_delegations', appId, userId, address, 'device_share'])

type Db = Kysely<Database> | Transaction<Database>

/** The wallet account's JSON data. */
const dataOf = (row: Selectable<LinkedAccountsTable>) =>
  JSON.parse(row.data) as Record<string, unknown>

/** Sets `delegated` in the wallet accounts' data, so every wire shape of the wallet shows it. */
async function markDelegated(tx: Db, rows: Selectable<LinkedAccountsTable>[], delegated: boolean) {
  for (const row of rows) {
    const data = dataOf(row)
    if ((data.delegated === true) === delegated) continue
    await tx
      .updateTable('linked_accounts')
      .set({ data: JSON.stringify({ ...data, delegated }) })
      .where('id', '=', row.id)
      .execute()
  }
}

/** The embedded wallet whose address this is, in the user's own accounts of this app. */
async function ownWallet(db: Db, auth: AuthContext, address: string) {
  return db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('app_id', '=', auth.appId)
    .where('user_id', '=', auth.userId)
    .where('type', '=', WALLET_ACCOUNT_TYPE)
    .where('identifier', '=', canonicalAddress(address))
    .executeTakeFirst()
}

export interface RebuildableWallet {
  appId: string
  userId: string
  chainType: ChainType
  /** Canonical address. */
  address: string
  walletIndex: number
  /** Canonical entropy id. */
  entropyId: string
}

/** The wallet's key, rebuilt from its two shares and checked against its address. */
export type WalletKey =
  | { chainType: 'ethereum'; privateKey: Uint8Array }
  | { chainType: 'solana'; seed: Uint8Array; publicKey: Uint8Array }

/**
 * Combines the two shares, re-derives the entropy id and the wallet's address
 * at its index; null when anything does not match (never a wrong key). The
 * secret is wiped before this returns; the caller wipes the key.
 */
async function rebuildKey(
  wallet: RebuildableWallet,
  deviceShare: Uint8Array,
  authShare: Uint8Array,
): Promise<WalletKey | null> {
  let secret: Awaited<ReturnType<typeof reconstructAndVerify>>
  try {
    secret = await reconstructAndVerify(deviceShare, authShare, wallet.entropyId)
  } catch {
    return null
  }
  try {
    if (wallet.chainType === 'ethereum') {
      const account = deriveEthereumAccount(secret, wallet.walletIndex)
      if (sameEntropyId(account.address, wallet.address))
        return { chainType: 'ethereum', privateKey: account.privateKey }
      account.privateKey.fill(0)
      return null
    }
    const account = deriveSolanaAccount(secret, wallet.walletIndex)
    if (account.address === wallet.address)
      return { chainType: 'solana', seed: account.seed, publicKey: account.publicKey }
    account.seed.fill(0)
    return null
  } catch {
    return null
  } finally {
    wipeSecret(secret)
  }
}

/** Zeroes a rebuilt key. */
export function wipeKey(key: WalletKey): void {
  if (key.chainType === 'ethereum') key.privateKey.fill(0)
  else key.seed.fill(0)
}

/** The auth share of the wallet's secret, unsealed (bytes). */
async function authShareOf(services: Services, wallet: RebuildableWallet): Promise<Uint8Array> {
  const secret = await services.db
    .selectFrom('wallet_secrets')
    .selectAll()
    .where('app_id', '=', wallet.appId)
    .where('user_id', '=', wallet.userId)
    .where('entropy_id', '=', wallet.entropyId)
    .executeTakeFirst()
  if (!secret) throw new ApiError('WALLET_NOT_FOUND')
  const ref = { appId: secret.app_id, userId: secret.user_id, entropyId: secret.entropy_id }
  return new Uint8Array(
    Buffer.from(unseal(services, ref, 'auth_share', secret.auth_share), 'base64url'),
  )
}

const b64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'))

/**
 * `POST /embedded_wallets/delegate`: opens the sealed device share, checks it
 * rebuilds the wallet with the auth share, stores it sealed at rest and marks
 * the wallet delegated. Nothing is stored when any check fails.
 */
export async function delegateWallet(
  services: Services,
  auth: AuthContext,
  body: DelegateWalletRequest,
): Promise<UserWire> {
  const account = await ownWallet(services.db, auth, body.address)
  if (!account) throw new ApiError('DELEGATION_ADDRESS_NOT_OWNED')
  const data = dataOf(account)
  if (data.chain_type !== body.chain_type)
    throw new ApiError('INVALID_PAYLOAD', `The wallet is not a ${body.chain_type} wallet`)
  const key = await delegationKey(services)
  if (body.key_id !== key.keyId)
    throw new ApiError('DELEGATION_SHARE_INVALID', 'The delegation key changed: fetch it again.')
  let deviceShare: Uint8Array
  try {
    deviceShare = openSealedShare(
      key,
      {
        ephemeralPublicKey: b64(body.ephemeral_public_key),
        iv: b64(body.iv),
        ciphertext: b64(body.ciphertext),
      },
      { appId: auth.appId, userId: auth.userId, address: body.address },
    )
  } catch {
    throw new ApiError('DELEGATION_SHARE_INVALID')
  }
  const wallet: RebuildableWallet = {
    appId: auth.appId,
    userId: auth.userId,
    chainType: body.chain_type,
    address: account.identifier,
    walletIndex: typeof data.wallet_index === 'number' ? data.wallet_index : 0,
    entropyId: typeof data.secret_id === 'string' ? data.secret_id : '',
  }
  const authShare = await authShareOf(services, wallet)
  try {
    const rebuilt = await rebuildKey(wallet, deviceShare, authShare)
    if (!rebuilt) throw new ApiError('DELEGATION_SHARE_INVALID')
    wipeKey(rebuilt)
    const sealed = services.secrets.encrypt(
      PURPOSE,
      delegatedShareAad(auth.appId, auth.userId, account.identifier),
      Buffer.from(deviceShare).toString('base64url'),
    )
    return await services.db.transaction().execute(async (tx) => {
      const row = {
        app_id: auth.appId,
        address: account.identifier,
        user_id: auth.userId,
        account_id: account.id,
        chain_type: body.chain_type,
        entropy_id: wallet.entropyId,
        device_share: sealed,
        created_at: services.now(),
      }
      await tx
        .insertInto('wallet_delegations')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['app_id', 'address']).doUpdateSet({
            device_share: sealed,
            account_id: account.id,
            created_at: row.created_at,
          }),
        )
        .execute()
      await markDelegated(tx, [account], true)
      return getUserWire(tx, auth.userId)
    })
  } finally {
    deviceShare.fill(0)
    authShare.fill(0)
  }
}

/** `POST /embedded_wallets/revoke`: deletes every delegation of the user in this app, at once. */
export async function revokeDelegations(services: Services, auth: AuthContext): Promise<UserWire> {
  return services.db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('wallet_delegations')
      .where('app_id', '=', auth.appId)
      .where('user_id', '=', auth.userId)
      .execute()
    const wallets = await tx
      .selectFrom('linked_accounts')
      .selectAll()
      .where('app_id', '=', auth.appId)
      .where('user_id', '=', auth.userId)
      .where('type', '=', WALLET_ACCOUNT_TYPE)
      .execute()
    await markDelegated(tx, wallets, false)
    return getUserWire(tx, auth.userId)
  })
}

/** A delegated wallet by its account id (the server API's wallet id), of this app. */
export interface DelegatedWallet extends RebuildableWallet {
  accountId: string
  /** The delegation row; null when the wallet is not (or no longer) delegated. */
  delegation: Selectable<WalletDelegationsTable> | null
}

/** The app's embedded wallet with that id, and its delegation; null when the app has no such wallet. */
export async function findWalletForRpc(
  services: Services,
  appId: string,
  walletId: string,
): Promise<DelegatedWallet | null> {
  const account = await services.db
    .selectFrom('linked_accounts')
    .selectAll()
    .where('id', '=', walletId)
    .where('app_id', '=', appId)
    .where('type', '=', WALLET_ACCOUNT_TYPE)
    .executeTakeFirst()
  if (!account) return null
  const data = dataOf(account)
  if (data.chain_type !== 'ethereum' && data.chain_type !== 'solana') return null
  const delegation = await services.db
    .selectFrom('wallet_delegations')
    .selectAll()
    .where('app_id', '=', appId)
    .where('address', '=', account.identifier)
    .where('user_id', '=', account.user_id)
    .executeTakeFirst()
  return {
    accountId: account.id,
    appId,
    userId: account.user_id,
    chainType: data.chain_type,
    address: account.identifier,
    walletIndex: typeof data.wallet_index === 'number' ? data.wallet_index : 0,
    entropyId: typeof data.secret_id === 'string' ? data.secret_id : '',
    delegation: delegation ?? null,
  }
}

/**
 * Rebuilds a delegated wallet's key for one request, in memory only; the
 * caller wipes it ({@link wipeKey}) once it signed. A share that does not
 * rebuild the wallet any more is a server fault (500), never a wrong key.
 */
export async function loadDelegatedKey(
  services: Services,
  wallet: DelegatedWallet,
): Promise<WalletKey> {
  if (!wallet.delegation) throw new ApiError('WALLET_NOT_DELEGATED')
  let deviceShare: Uint8Array
  try {
    deviceShare = b64(
      services.secrets
        .decrypt(
          PURPOSE,
          delegatedShareAad(wallet.appId, wallet.userId, wallet.address),
          wallet.delegation.device_share,
        )
        .toString('utf8'),
    )
  } catch {
    services.logger.error(
      `delegated share failed to unseal (app ${wallet.appId}): tampered, moved or wrong master key`,
    )
    throw new ApiError('INTERNAL_ERROR')
  }
  const authShare = await authShareOf(services, wallet)
  try {
    const key = await rebuildKey(wallet, deviceShare, authShare)
    if (!key) {
      services.logger.error(`delegated share does not rebuild its wallet (app ${wallet.appId})`)
      throw new ApiError('INTERNAL_ERROR')
    }
    return key
  } finally {
    deviceShare.fill(0)
    authShare.fill(0)
  }
}
