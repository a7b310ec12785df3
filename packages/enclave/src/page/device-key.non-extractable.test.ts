import { IDBFactory } from 'fake-indexeddb'
import { decodeProtectedHeader } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadDeviceKey, loadPageDeviceKey } from './device-key.ts'
import {
  type DeviceKeyStore,
  IndexedDbDeviceKeyStore,
  MemoryDeviceKeyStore,
} from './device-key-store.ts'
import { APP_ID } from './harness.test-helper.ts'
import { ENCLAVE_ORIGIN, verifyProof } from './proof.test-helper.ts'
import { IndexedDbDeviceShareStore } from './store.ts'

// docs/security.md "Key routes answer only to the enclave": the device key's
// private half can be used by the enclave but never read, not even by the
// enclave itself, and it is the same key for as long as the browser keeps
// the enclave origin's storage.

const OTHER_APP = 'zyxwvutsrqponmlkjihgfedcb'
const proofInput = {
  method: 'POST',
  url: `${ENCLAVE_ORIGIN}/api/v1/embedded_wallets/auth_share`,
  accessToken: 'token-1',
}

afterEach(() => vi.restoreAllMocks())

describe('device key: never extractable', () => {
  it('keeps a private key with extractable false, which exportKey refuses in every format', async () => {
    const store = new MemoryDeviceKeyStore()
    await loadDeviceKey(store, APP_ID)
    const record = await store.get(APP_ID)
    expect(record?.privateKey.extractable).toBe(false)
    expect(record?.privateKey.type).toBe('private')
    expect(record?.privateKey.usages).toEqual(['sign'])
    for (const format of ['jwk', 'pkcs8'] as const)
      await expect(
        globalThis.crypto.subtle.exportKey(format, record?.privateKey as CryptoKey),
      ).rejects.toThrow()
  })

  it('hands out only the public key, its thumbprint and proofs', async () => {
    const key = await loadDeviceKey(new MemoryDeviceKeyStore(), APP_ID)
    expect(Object.keys(key).sort()).toEqual(['appId', 'publicJwk', 'signProof', 'thumbprint'])
    expect(Object.keys(key.publicJwk).sort()).toEqual(['crv', 'kty', 'x', 'y'])
    const proof = await key.signProof(proofInput)
    expect(Object.keys(decodeProtectedHeader(proof).jwk ?? {}).sort()).toEqual([
      'crv',
      'kty',
      'x',
      'y',
    ])
  })

  it('stores CryptoKey objects in IndexedDB, never key bytes, still not extractable after a reload', async () => {
    const factory = new IDBFactory()
    await loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID)
    const reloaded = await new IndexedDbDeviceKeyStore(factory).get(APP_ID)
    expect(reloaded?.privateKey.extractable).toBe(false)
    await expect(
      globalThis.crypto.subtle.exportKey('pkcs8', reloaded?.privateKey as CryptoKey),
    ).rejects.toThrow()
  })

  it('ignores a stored record whose private key is extractable, and replaces it', async () => {
    const store = new MemoryDeviceKeyStore()
    const leaky = (await globalThis.crypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-256' },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair
    store.records.set(APP_ID, { appId: APP_ID, ...leaky, createdAt: 1 })
    await loadDeviceKey(store, APP_ID)
    expect(store.records.get(APP_ID)?.privateKey.extractable).toBe(false)
  })
})

describe('device key: one per app, kept', () => {
  it('is the same key and thumbprint after the page reloads (a new store over the same IndexedDB)', async () => {
    const factory = new IDBFactory()
    const first = await loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID)
    const second = await loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID)
    expect(second.thumbprint).toBe(first.thumbprint)
    expect(second.publicJwk).toEqual(first.publicJwk)
    // The reloaded private key signs proofs that the first public key verifies.
    const verified = await verifyProof(await second.signProof(proofInput), proofInput)
    expect(verified.jkt).toBe(first.thumbprint)
  })

  it('makes one key for concurrent first loads in one page', async () => {
    const generate = vi.spyOn(globalThis.crypto.subtle, 'generateKey')
    const store = new MemoryDeviceKeyStore()
    const keys = await Promise.all(Array.from({ length: 5 }, () => loadDeviceKey(store, APP_ID)))
    expect(generate).toHaveBeenCalledTimes(1)
    expect(new Set(keys.map((k) => k.thumbprint)).size).toBe(1)
  })

  it('makes one key for concurrent first loads in two frames of the same origin', async () => {
    const factory = new IDBFactory()
    const [a, b] = await Promise.all([
      loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID),
      loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID),
    ])
    expect(a.thumbprint).toBe(b.thumbprint)
    const stored = await loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID)
    expect(stored.thumbprint).toBe(a.thumbprint)
  })

  it('gives each app its own key', async () => {
    const store = new MemoryDeviceKeyStore()
    const [a, b] = await Promise.all([
      loadDeviceKey(store, APP_ID),
      loadDeviceKey(store, OTHER_APP),
    ])
    expect(a.thumbprint).not.toBe(b.thumbprint)
  })

  it('leaves the device shares alone (its own database)', async () => {
    const factory = new IDBFactory()
    const shares = new IndexedDbDeviceShareStore(factory)
    const share = {
      appId: APP_ID,
      entropyId: '0x0000000000000000000000000000000000000001',
      deviceShare: new Uint8Array([1, 2, 3]),
      recoveryMethod: 'latchkey' as const,
      updatedAt: 1,
    }
    await shares.put(share)
    await loadDeviceKey(new IndexedDbDeviceKeyStore(factory), APP_ID)
    expect(await new IndexedDbDeviceShareStore(factory).get(APP_ID, share.entropyId)).toEqual(share)
  })

  it('falls back to a key that lasts as long as the page when storage is refused', async () => {
    const refusing: DeviceKeyStore = {
      get: () => Promise.reject(new Error('The user denied permission to access the database.')),
      putIfAbsent: () => Promise.reject(new Error('unreachable')),
    }
    const fallback = new MemoryDeviceKeyStore()
    const logger = { warn: vi.fn() }
    const page = loadPageDeviceKey(refusing, APP_ID, logger, fallback)
    const thumbprint = await page.thumbprint
    expect(thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(logger.warn).toHaveBeenCalledTimes(1)
    // Proofs come from the key announced, kept only in the page's memory and still non-extractable.
    const verified = await verifyProof(await page.signProof(proofInput), proofInput)
    expect(verified.jkt).toBe(thumbprint)
    const record = await fallback.get(APP_ID)
    expect(record?.privateKey.extractable).toBe(false)
    // A reload (a new page, a new memory) makes another key: the old session's binding is gone.
    const reloaded = loadPageDeviceKey(refusing, APP_ID, logger, new MemoryDeviceKeyStore())
    expect(await reloaded.thumbprint).not.toBe(thumbprint)
  })

  it('refuses when there is no IndexedDB', async () => {
    await expect(loadDeviceKey(new IndexedDbDeviceKeyStore(undefined), APP_ID)).rejects.toThrow(
      'IndexedDB is not available',
    )
  })
})
