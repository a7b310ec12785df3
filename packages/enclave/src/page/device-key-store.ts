import { done, indexedDbOpener, promised } from './store.ts'

/**
 * One app's enclave device key (docs/security.md "Key routes answer only to
 * the enclave"): a WebCrypto ECDSA P-256 pair whose private half is not
 * extractable. The CryptoKey objects themselves are stored (IndexedDB
 * structured-clones them), never their bytes: no script, not even the
 * enclave's own, can read the private key.
 */
export interface DeviceKeyRecord {
  appId: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  createdAt: number
}

/** Where device keys are kept, one per app id. */
export interface DeviceKeyStore {
  get(appId: string): Promise<DeviceKeyRecord | null>
  /**
   * Stores `record` unless the app already has a key, and resolves with the
   * key that is stored: of two frames (or tabs) that made a key at the same
   * time, both end up using the first one written.
   */
  putIfAbsent(record: DeviceKeyRecord): Promise<DeviceKeyRecord>
}

/** A separate database from the device shares: its own version, no upgrade of theirs. */
export const DEVICE_KEY_DB_NAME = 'latchkey-enclave-keys'
export const DEVICE_KEY_STORE_NAME = 'device-keys'

/** True for a usable key of `appId`: a non-extractable P-256 signing key and its public key. */
export function isDeviceKeyRecord(value: unknown, appId: string): value is DeviceKeyRecord {
  if (!value || typeof value !== 'object') return false
  const { appId: owner, privateKey, publicKey } = value as Partial<DeviceKeyRecord>
  const isP256 = (key: CryptoKey | undefined) =>
    !!key &&
    key.algorithm?.name === 'ECDSA' &&
    (key.algorithm as EcKeyAlgorithm).namedCurve === 'P-256'
  return (
    owner === appId &&
    isP256(privateKey) &&
    privateKey?.type === 'private' &&
    privateKey.extractable === false &&
    privateKey.usages.includes('sign') &&
    isP256(publicKey) &&
    publicKey?.type === 'public'
  )
}

/** In memory, for tests and Node (a page reload loses it). */
export class MemoryDeviceKeyStore implements DeviceKeyStore {
  readonly records = new Map<string, DeviceKeyRecord>()

  async get(appId: string) {
    const record = this.records.get(appId)
    return isDeviceKeyRecord(record, appId) ? record : null
  }

  async putIfAbsent(record: DeviceKeyRecord) {
    const stored = this.records.get(record.appId)
    if (isDeviceKeyRecord(stored, record.appId)) return stored
    this.records.set(record.appId, record)
    return record
  }
}

/**
 * Device keys in this origin's IndexedDB: database `latchkey-enclave-keys`,
 * store `device-keys`, key the app id. Writes wait for the transaction to
 * commit before resolving.
 */
export class IndexedDbDeviceKeyStore implements DeviceKeyStore {
  readonly #open: () => Promise<IDBDatabase>

  constructor(factory: IDBFactory | undefined = globalThis.indexedDB) {
    this.#open = indexedDbOpener(factory, DEVICE_KEY_DB_NAME, DEVICE_KEY_STORE_NAME)
  }

  async get(appId: string) {
    const db = await this.#open()
    const tx = db.transaction(DEVICE_KEY_STORE_NAME, 'readonly')
    const value: unknown = await promised(tx.objectStore(DEVICE_KEY_STORE_NAME).get(appId))
    return isDeviceKeyRecord(value, appId) ? value : null
  }

  async putIfAbsent(record: DeviceKeyRecord) {
    const db = await this.#open()
    // Read and write in one readwrite transaction: IndexedDB runs those one
    // at a time per store, so two frames cannot both write a key.
    const tx = db.transaction(DEVICE_KEY_STORE_NAME, 'readwrite', { durability: 'strict' })
    const store = tx.objectStore(DEVICE_KEY_STORE_NAME)
    let kept = record
    const existing = store.get(record.appId)
    existing.onsuccess = () => {
      if (isDeviceKeyRecord(existing.result, record.appId)) kept = existing.result
      else store.put(record, record.appId)
    }
    await done(tx)
    return kept
  }
}
