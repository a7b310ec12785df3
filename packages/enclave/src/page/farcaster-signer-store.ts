import { done, indexedDbOpener, promised } from './store.ts'

/**
 * One user's Farcaster signer key in this enclave (spec 03 "Farcaster
 * signer"; docs/farcaster-signer.md): a WebCrypto Ed25519 pair whose private
 * half is not extractable. As with the device key (device-key-store.ts), the
 * CryptoKey objects are stored (IndexedDB structured-clones them), never key
 * bytes: no script, not even the enclave's own, can read the private key.
 */
export interface FarcasterSignerKeyRecord {
  appId: string
  userId: string
  privateKey: CryptoKey
  /** 0x-prefixed lowercase hex of the 32-byte public key. */
  publicKey: `0x${string}`
  createdAt: number
}

/** Where signer keys are kept, one per app and user. */
export interface FarcasterSignerKeyStore {
  get(appId: string, userId: string): Promise<FarcasterSignerKeyRecord | null>
  /** Stores `record` unless the user already has a key; resolves with the key that is stored. */
  putIfAbsent(record: FarcasterSignerKeyRecord): Promise<FarcasterSignerKeyRecord>
  /** Forgets the user's key (their account was deleted); resolves once that is durable. */
  delete(appId: string, userId: string): Promise<void>
}

export const FARCASTER_SIGNER_DB_NAME = 'latchkey-enclave-farcaster-signers'
export const FARCASTER_SIGNER_STORE_NAME = 'signer-keys'

const signerKey = (appId: string, userId: string) => `${appId}:${userId}`

/** True for a usable signer key of this app and user: a non-extractable Ed25519 signing key. */
export function isSignerKeyRecord(
  value: unknown,
  appId: string,
  userId: string,
): value is FarcasterSignerKeyRecord {
  if (!value || typeof value !== 'object') return false
  const record = value as Partial<FarcasterSignerKeyRecord>
  const key = record.privateKey
  return (
    record.appId === appId &&
    record.userId === userId &&
    typeof record.publicKey === 'string' &&
    /^0x[0-9a-f]{64}$/.test(record.publicKey) &&
    !!key &&
    key.algorithm?.name === 'Ed25519' &&
    key.type === 'private' &&
    key.extractable === false &&
    key.usages.includes('sign')
  )
}

/** In memory, for tests (a reload loses it). */
export class MemoryFarcasterSignerKeyStore implements FarcasterSignerKeyStore {
  readonly records = new Map<string, FarcasterSignerKeyRecord>()

  async get(appId: string, userId: string) {
    const record = this.records.get(signerKey(appId, userId))
    return isSignerKeyRecord(record, appId, userId) ? record : null
  }

  async putIfAbsent(record: FarcasterSignerKeyRecord) {
    const stored = await this.get(record.appId, record.userId)
    if (stored) return stored
    this.records.set(signerKey(record.appId, record.userId), record)
    return record
  }

  async delete(appId: string, userId: string) {
    this.records.delete(signerKey(appId, userId))
  }
}

/**
 * Signer keys in this origin's IndexedDB: database
 * `latchkey-enclave-farcaster-signers`, store `signer-keys`, key
 * `${appId}:${userId}`. Writes wait for the transaction to commit.
 */
export class IndexedDbFarcasterSignerKeyStore implements FarcasterSignerKeyStore {
  readonly #open: () => Promise<IDBDatabase>

  constructor(factory: IDBFactory | undefined = globalThis.indexedDB) {
    this.#open = indexedDbOpener(factory, FARCASTER_SIGNER_DB_NAME, FARCASTER_SIGNER_STORE_NAME)
  }

  async get(appId: string, userId: string) {
    const db = await this.#open()
    const tx = db.transaction(FARCASTER_SIGNER_STORE_NAME, 'readonly')
    const value: unknown = await promised(
      tx.objectStore(FARCASTER_SIGNER_STORE_NAME).get(signerKey(appId, userId)),
    )
    return isSignerKeyRecord(value, appId, userId) ? value : null
  }

  async putIfAbsent(record: FarcasterSignerKeyRecord) {
    const db = await this.#open()
    // One readwrite transaction: two frames cannot both write a key.
    const tx = db.transaction(FARCASTER_SIGNER_STORE_NAME, 'readwrite', { durability: 'strict' })
    const store = tx.objectStore(FARCASTER_SIGNER_STORE_NAME)
    const id = signerKey(record.appId, record.userId)
    let kept = record
    const existing = store.get(id)
    existing.onsuccess = () => {
      if (isSignerKeyRecord(existing.result, record.appId, record.userId)) kept = existing.result
      else store.put(record, id)
    }
    await done(tx)
    return kept
  }

  async delete(appId: string, userId: string) {
    const db = await this.#open()
    const tx = db.transaction(FARCASTER_SIGNER_STORE_NAME, 'readwrite', { durability: 'strict' })
    tx.objectStore(FARCASTER_SIGNER_STORE_NAME).delete(signerKey(appId, userId))
    await done(tx)
  }
}
