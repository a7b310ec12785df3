import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { PageError } from './errors.ts'

/** One stored device share (security bar 42: it lives only in the enclave origin's storage). */
export interface DeviceShareRecord {
  appId: string
  entropyId: string
  /** The device share bytes. */
  deviceShare: Uint8Array
  /** How the recovery share is sealed, as last set from this device. */
  recoveryMethod: RecoveryMethod
  updatedAt: number
}

/** Where device shares are kept, keyed by `${appId}:${entropyId}`. */
export interface DeviceShareStore {
  get(appId: string, entropyId: string): Promise<DeviceShareRecord | null>
  put(record: DeviceShareRecord): Promise<void>
  /** Deletes one share (account deletion); a share that is not there is no error. */
  delete(appId: string, entropyId: string): Promise<void>
  /** Deletes every share of one app (logout). */
  clearApp(appId: string): Promise<void>
}

export const DB_NAME = 'latchkey-enclave'
export const STORE_NAME = 'device-shares'

/**
 * The key of a share. Ethereum entropy ids are lowercased so that the same
 * wallet is found whatever letter case the host sends.
 */
export function shareKey(appId: string, entropyId: string): string {
  const id = /^0x[0-9a-fA-F]{40}$/.test(entropyId) ? entropyId.toLowerCase() : entropyId
  return `${appId}:${id}`
}

function copyRecord(record: DeviceShareRecord): DeviceShareRecord {
  return { ...record, deviceShare: Uint8Array.from(record.deviceShare) }
}

/** In memory, for tests (and a fallback nothing uses in production). */
export class MemoryDeviceShareStore implements DeviceShareStore {
  readonly records = new Map<string, DeviceShareRecord>()

  async get(appId: string, entropyId: string) {
    const record = this.records.get(shareKey(appId, entropyId))
    return record ? copyRecord(record) : null
  }

  async put(record: DeviceShareRecord) {
    this.records.set(shareKey(record.appId, record.entropyId), copyRecord(record))
  }

  async delete(appId: string, entropyId: string) {
    this.records.delete(shareKey(appId, entropyId))
  }

  async clearApp(appId: string) {
    for (const [key, record] of this.records) if (record.appId === appId) this.records.delete(key)
  }
}

/** Resolves with a request's result (rejects with its error). */
export function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'))
  })
}

/** Resolves once the transaction has committed (rejects when it fails or aborts). */
export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'))
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
  })
}

/**
 * Device shares in this origin's IndexedDB: database `latchkey-enclave`,
 * store `device-shares`, key `${appId}:${entropyId}`. Writes wait for the
 * transaction to commit before resolving.
 */
export class IndexedDbDeviceShareStore implements DeviceShareStore {
  readonly #open: () => Promise<IDBDatabase>

  constructor(factory: IDBFactory | undefined = globalThis.indexedDB) {
    this.#open = indexedDbOpener(factory, DB_NAME, STORE_NAME)
  }

  async get(appId: string, entropyId: string) {
    const db = await this.#open()
    const tx = db.transaction(STORE_NAME, 'readonly')
    const value = (await promised(tx.objectStore(STORE_NAME).get(shareKey(appId, entropyId)))) as
      | DeviceShareRecord
      | undefined
    if (!value || !(value.deviceShare instanceof Uint8Array) || value.appId !== appId) return null
    return value
  }

  async put(record: DeviceShareRecord) {
    const db = await this.#open()
    const tx = db.transaction(STORE_NAME, 'readwrite', { durability: 'strict' })
    tx.objectStore(STORE_NAME).put(copyRecord(record), shareKey(record.appId, record.entropyId))
    await done(tx)
  }

  async delete(appId: string, entropyId: string) {
    const db = await this.#open()
    const tx = db.transaction(STORE_NAME, 'readwrite', { durability: 'strict' })
    tx.objectStore(STORE_NAME).delete(shareKey(appId, entropyId))
    await done(tx)
  }

  async clearApp(appId: string) {
    const db = await this.#open()
    const tx = db.transaction(STORE_NAME, 'readwrite')
    // Keys are `${appId}:…`; ':' is followed by ';' in code-unit order.
    tx.objectStore(STORE_NAME).delete(IDBKeyRange.bound(`${appId}:`, `${appId};`, false, true))
    await done(tx)
  }
}

/**
 * Opens, once, a database of one object store (created on first use) and
 * hands the same connection to every caller; a failed open is retried on the
 * next call. A newer version opened elsewhere (another tab) closes this
 * connection rather than wait on it. Shared by the share and key stores.
 */
export function indexedDbOpener(
  factory: IDBFactory | undefined,
  dbName: string,
  storeName: string,
): () => Promise<IDBDatabase> {
  let db: Promise<IDBDatabase> | null = null
  return () => {
    if (db) return db
    if (!factory)
      return Promise.reject(new PageError('WALLET_PROXY_UNAVAILABLE', 'IndexedDB is not available'))
    const request = factory.open(dbName, 1)
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(storeName))
        request.result.createObjectStore(storeName)
    }
    db = promised(request).then(
      (opened) => {
        opened.onversionchange = () => {
          opened.close()
          db = null
        }
        return opened
      },
      (error) => {
        db = null
        throw error
      },
    )
    return db
  }
}
