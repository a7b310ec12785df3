import type {
  AddEmbeddedWalletRequest,
  ChainType,
  CreateEmbeddedWalletsRequest,
  RecoveryMaterial,
  SetRecoveryRequest,
  UserWire,
} from '@latchkey/protocol'
import type { Insertable, Selectable, Transaction } from 'kysely'
import type { AppRecord } from '../apps/service.ts'
import type { KeyPurpose } from '../crypto/secrets.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { Database, WalletSecretsTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { getUserWire, insertAccount, WALLET_ACCOUNT_TYPE } from '../users/service.ts'
import { enqueueWalletsCreated } from '../webhooks/wallet-events.ts'
import { assertRecoveryAllowed } from './recovery-policy.ts'

/*
 * Embedded-wallet share storage (docs/security.md "Embedded wallet keys").
 * The server keeps, per secret: the auth share, the recovery share (device
 * share sealed under a recovery key) and — automatic recovery only — that
 * recovery key. Every one is sealed with AES-256-GCM under a key derived from
 * the master key (one HKDF purpose per column kind), with associated data
 * binding app id, user id, entropy id and column: a blob copied to another
 * row, another user or another column fails to open (security bar 45).
 * Nothing here logs a share, a key or a ciphertext (security bar 50).
 */

export type SealedColumn = 'auth_share' | 'recovery_ciphertext' | 'recovery_key'

/** HKDF purpose per sealed column: the server-held recovery key never shares a key with auth shares. */
export const WALLET_SEAL_PURPOSES: Record<SealedColumn, KeyPurpose> = {
  auth_share: 'auth-shares',
  recovery_ciphertext: 'recovery-shares',
  recovery_key: 'recovery-keys',
}

/** Which row a sealed blob belongs to. */
export interface SecretRef {
  appId: string
  userId: string
  /** Canonical entropy id (the primary key's second half). */
  entropyId: string
}

/** Associated data of a sealed column: the row (app, user, entropy id) and the column. */
export const walletSecretAad = (ref: SecretRef, column: SealedColumn) =>
  JSON.stringify(['wallet_secrets', ref.appId, ref.userId, ref.entropyId, column])

function seal(services: Services, ref: SecretRef, column: SealedColumn, value: string): string {
  return services.secrets.encrypt(WALLET_SEAL_PURPOSES[column], walletSecretAad(ref, column), value)
}

/**
 * Opens a sealed column. A blob that fails to authenticate (tampered, moved
 * from another row or column, other master key) is logged by kind only and
 * answered as 500 INTERNAL_ERROR: never used, never echoed.
 */
export function unseal(
  services: Services,
  ref: SecretRef,
  column: SealedColumn,
  sealed: string,
): string {
  try {
    return services.secrets
      .decrypt(WALLET_SEAL_PURPOSES[column], walletSecretAad(ref, column), sealed)
      .toString('utf8')
  } catch {
    services.logger.error(
      `wallet secret failed to unseal (app ${ref.appId}, column ${column}): tampered, moved or wrong master key`,
    )
    throw new ApiError('INTERNAL_ERROR')
  }
}

const isEthereumAddress = (address: string) => address.startsWith('0x')

/** The address as an identity key: Ethereum addresses are case-insensitive (EIP-55 is only a checksum). */
export const canonicalAddress = (address: string): string =>
  isEthereumAddress(address) ? address.toLowerCase() : address

const chainOf = (address: string): ChainType => (isEthereumAddress(address) ? 'ethereum' : 'solana')

const invalid = (message: string) => new ApiError('INVALID_PAYLOAD', message)

interface WalletInput {
  chain_type: ChainType
  address: string
  wallet_index: number | null
}

/**
 * Shape rules every wallet of an HD secret obeys: the address is of its
 * chain, the index is set, and the Ethereum address is the entropy id exactly
 * at index 0 (the entropy id *is* the index-0 Ethereum address).
 */
function checkHdWallet(entropyId: string, wallet: WalletInput): void {
  if (chainOf(wallet.address) !== wallet.chain_type)
    throw invalid(`The address is not a ${wallet.chain_type} address`)
  if (wallet.wallet_index === null) throw invalid('An HD wallet needs a wallet_index')
  if (wallet.chain_type !== 'ethereum') return
  const isEntropyAddress = canonicalAddress(wallet.address) === entropyId
  if (wallet.wallet_index === 0 && !isEntropyAddress)
    throw invalid('The index-0 Ethereum address must equal entropy_id')
  if (wallet.wallet_index !== 0 && isEntropyAddress)
    throw invalid('entropy_id is the index-0 Ethereum address')
}

type RecoveryColumns = Pick<
  Insertable<WalletSecretsTable>,
  'recovery_method' | 'recovery_ciphertext' | 'recovery_key' | 'recovery_kdf' | 'recovery_key_id'
>

/** The recovery columns for new material; every column is set, so a replacement leaves nothing of the old one. */
function recoveryColumns(
  services: Services,
  ref: SecretRef,
  recovery: RecoveryMaterial,
): RecoveryColumns {
  return {
    recovery_method: recovery.method,
    recovery_ciphertext: seal(services, ref, 'recovery_ciphertext', recovery.ciphertext),
    recovery_key:
      recovery.method === 'latchkey'
        ? seal(services, ref, 'recovery_key', recovery.recovery_key)
        : null,
    recovery_kdf: recovery.method === 'user-passcode' ? JSON.stringify(recovery.kdf) : null,
    // Names the file / record in the user's drive; not secret (the key is there, not here).
    recovery_key_id:
      recovery.method === 'google-drive' || recovery.method === 'icloud' ? recovery.key_id : null,
  }
}

export async function findOwnSecret(
  db: Services['db'] | Transaction<Database>,
  auth: AuthContext,
  entropyId: string,
): Promise<Selectable<WalletSecretsTable> | undefined> {
  return db
    .selectFrom('wallet_secrets')
    .selectAll()
    .where('app_id', '=', auth.appId)
    .where('entropy_id', '=', canonicalAddress(entropyId))
    .where('user_id', '=', auth.userId)
    .executeTakeFirst()
}

export const refOf = (row: Selectable<WalletSecretsTable>): SecretRef => ({
  appId: row.app_id,
  userId: row.user_id,
  entropyId: row.entropy_id,
})

function walletAccount(
  secretId: string,
  entropyIdAsGiven: string,
  wallet: WalletInput,
  imported: boolean,
) {
  return {
    type: WALLET_ACCOUNT_TYPE,
    identifier: canonicalAddress(wallet.address),
    data: {
      address: wallet.address,
      chain_type: wallet.chain_type,
      wallet_index: wallet.wallet_index,
      entropy_id: entropyIdAsGiven,
      secret_id: secretId,
      imported,
      delegated: false,
    },
  }
}

async function assertAddressesFree(
  tx: Transaction<Database>,
  appId: string,
  identifiers: string[],
): Promise<void> {
  const taken = await tx
    .selectFrom('linked_accounts')
    .select('id')
    .where('app_id', '=', appId)
    .where('type', '=', WALLET_ACCOUNT_TYPE)
    .where('identifier', 'in', identifiers)
    .executeTakeFirst()
  if (taken) throw new ApiError('ACCOUNT_ALREADY_LINKED')
}

/**
 * Stores a new secret's shares and its first wallets in ONE transaction: the
 * wallets become visible only once both shares are stored, and any failure
 * leaves nothing behind (ARCHITECTURE "creating a wallet is atomic").
 */
export async function createEmbeddedWallets(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  input: CreateEmbeddedWalletsRequest,
): Promise<UserWire> {
  const entropyId = canonicalAddress(input.entropy_id)
  const wallets: WalletInput[] = input.wallets
  const imported = input.entropy_type === 'private-key'
  if (imported) {
    const [wallet] = wallets
    if (!wallet || wallets.length !== 1) throw invalid('An imported key has exactly one wallet')
    if (wallet.wallet_index !== null) throw invalid('An imported wallet has no wallet_index')
    if (chainOf(wallet.address) !== wallet.chain_type)
      throw invalid(`The address is not a ${wallet.chain_type} address`)
    if (canonicalAddress(wallet.address) !== entropyId)
      throw invalid("An imported key's entropy_id is its address")
  } else {
    if (!isEthereumAddress(entropyId))
      throw invalid('An HD entropy_id is its index-0 Ethereum address')
    const seen = new Set<string>()
    for (const wallet of wallets) {
      checkHdWallet(entropyId, wallet)
      const slot = `${wallet.chain_type}/${wallet.wallet_index}`
      if (seen.has(slot)) throw invalid('Two wallets with the same chain and index')
      seen.add(slot)
    }
  }
  const identifiers = wallets.map((w) => canonicalAddress(w.address))
  if (new Set(identifiers).size !== identifiers.length) throw invalid('Two wallets, one address')
  assertRecoveryAllowed(app, input.recovery.method)

  const ref: SecretRef = { appId: app.id, userId: auth.userId, entropyId }
  const now = services.now()
  try {
    return await services.db.transaction().execute(async (tx) => {
      if (!imported) {
        const hd = await tx
          .selectFrom('wallet_secrets')
          .select('entropy_id')
          .where('app_id', '=', app.id)
          .where('user_id', '=', auth.userId)
          .where('entropy_type', '=', 'hd')
          .executeTakeFirst()
        if (hd) throw new ApiError('WALLET_ALREADY_EXISTS')
      }
      const existing = await tx
        .selectFrom('wallet_secrets')
        .select('user_id')
        .where('app_id', '=', app.id)
        .where('entropy_id', '=', entropyId)
        .executeTakeFirst()
      if (existing)
        throw new ApiError(
          existing.user_id === auth.userId ? 'WALLET_ALREADY_EXISTS' : 'ACCOUNT_ALREADY_LINKED',
        )
      await assertAddressesFree(tx, app.id, identifiers)
      await tx
        .insertInto('wallet_secrets')
        .values({
          entropy_id: entropyId,
          app_id: app.id,
          user_id: auth.userId,
          entropy_type: input.entropy_type,
          auth_share: seal(services, ref, 'auth_share', input.auth_share),
          ...recoveryColumns(services, ref, input.recovery),
          created_at: now,
          updated_at: now,
        })
        .execute()
      for (const wallet of wallets)
        await insertAccount(
          tx,
          app.id,
          auth.userId,
          walletAccount(entropyId, input.entropy_id, wallet, imported),
          now,
        )
      await enqueueWalletsCreated(tx, app.id, auth.userId, identifiers, now)
      return getUserWire(tx, auth.userId)
    })
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent request won the race (the transaction rolled back whole).
    const hd = imported
      ? undefined
      : await services.db
          .selectFrom('wallet_secrets')
          .select('entropy_id')
          .where('app_id', '=', app.id)
          .where('user_id', '=', auth.userId)
          .where('entropy_type', '=', 'hd')
          .executeTakeFirst()
    throw new ApiError(hd ? 'WALLET_ALREADY_EXISTS' : 'ACCOUNT_ALREADY_LINKED')
  }
}

/** Adds another HD wallet (another index, or the other chain) of the user's own secret. */
export async function addEmbeddedWallet(
  services: Services,
  auth: AuthContext,
  input: AddEmbeddedWalletRequest,
): Promise<UserWire> {
  const entropyId = canonicalAddress(input.entropy_id)
  const wallet: WalletInput = input
  const now = services.now()
  try {
    return await services.db.transaction().execute(async (tx) => {
      // Touch the secret first: on Postgres this locks the row, so concurrent
      // adds of one secret run one after the other (SQLite runs one writer).
      const touched = await tx
        .updateTable('wallet_secrets')
        .set({ updated_at: now })
        .where('app_id', '=', auth.appId)
        .where('entropy_id', '=', entropyId)
        .where('user_id', '=', auth.userId)
        .executeTakeFirst()
      if (Number(touched.numUpdatedRows) === 0) throw new ApiError('WALLET_NOT_FOUND')
      const secret = await findOwnSecret(tx, auth, entropyId)
      if (!secret) throw new ApiError('WALLET_NOT_FOUND')
      if (secret.entropy_type !== 'hd') throw invalid('An imported key has no other wallets')
      checkHdWallet(entropyId, wallet)
      const own = await tx
        .selectFrom('linked_accounts')
        .select('data')
        .where('user_id', '=', auth.userId)
        .where('type', '=', WALLET_ACCOUNT_TYPE)
        .execute()
      const siblings = own
        .map((row) => JSON.parse(row.data) as Record<string, unknown>)
        .filter((data) => data.secret_id === entropyId)
      const slotTaken = siblings.some(
        (data) =>
          data.chain_type === wallet.chain_type && data.wallet_index === wallet.wallet_index,
      )
      if (slotTaken)
        throw new ApiError(
          'WALLET_ALREADY_EXISTS',
          'The user already has a wallet at this chain and index.',
        )
      const identifier = canonicalAddress(wallet.address)
      await assertAddressesFree(tx, auth.appId, [identifier])
      await insertAccount(
        tx,
        auth.appId,
        auth.userId,
        // The entropy id as the secret's other wallets spell it (as given at creation).
        walletAccount(entropyId, spelledAs(siblings, input.entropy_id), wallet, false),
        now,
      )
      await enqueueWalletsCreated(tx, auth.appId, auth.userId, [identifier], now)
      return getUserWire(tx, auth.userId)
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
}

const spelledAs = (siblings: Record<string, unknown>[], fallback: string): string => {
  const given = siblings.find((data) => typeof data.entropy_id === 'string')?.entropy_id
  return typeof given === 'string' ? given : fallback
}

/**
 * Replaces the recovery material in one UPDATE: every recovery column is
 * rewritten, so moving off automatic recovery deletes the server-held key.
 */
export async function setRecovery(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  input: SetRecoveryRequest,
): Promise<UserWire> {
  assertRecoveryAllowed(app, input.recovery.method)
  const entropyId = canonicalAddress(input.entropy_id)
  const ref: SecretRef = { appId: auth.appId, userId: auth.userId, entropyId }
  const result = await services.db
    .updateTable('wallet_secrets')
    .set({ ...recoveryColumns(services, ref, input.recovery), updated_at: services.now() })
    .where('app_id', '=', auth.appId)
    .where('entropy_id', '=', entropyId)
    .where('user_id', '=', auth.userId)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) === 0) throw new ApiError('WALLET_NOT_FOUND')
  return getUserWire(services.db, auth.userId)
}
