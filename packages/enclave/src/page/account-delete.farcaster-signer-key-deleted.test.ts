import type { UserWire } from '@latchkey/protocol'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createAccountHandlers } from './account-delete.ts'
import type { ServerApi } from './api.ts'
import {
  type FarcasterSignerKeyStore,
  IndexedDbFarcasterSignerKeyStore,
  MemoryFarcasterSignerKeyStore,
} from './farcaster-signer-store.ts'
import { MemoryDeviceShareStore } from './store.ts'

// Deleting an account forgets the user's Farcaster signer key in this enclave
// (docs/farcaster-signer.md): Farcaster lists the key until the user removes it
// there, so a key left behind would still sign for a deleted account.
const APP_ID = 'appaaaaaaaaaaaaaaaaaaaaaa'

const userWire = (id: string) => ({ id, linked_accounts: [] }) as unknown as UserWire

async function signerKey(userId: string) {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  return {
    appId: APP_ID,
    userId,
    privateKey: pair.privateKey,
    publicKey: `0x${'ab'.repeat(32)}` as const,
    createdAt: 0,
  }
}

function setup(farcasterSignerKeys: FarcasterSignerKeyStore, deleted: string[], refuse = false) {
  const api = {
    me: async (token: string) => userWire(token),
    deleteAccount: async (token: string) => {
      if (refuse) throw new Error('refused')
      deleted.push(token)
    },
  } as unknown as ServerApi
  const handlers = createAccountHandlers({
    appId: APP_ID,
    api,
    store: new MemoryDeviceShareStore(),
    farcasterSignerKeys,
  })
  return { handlers, farcasterSignerKeys }
}

const stores = [
  ['in memory', () => new MemoryFarcasterSignerKeyStore()],
  ['in IndexedDB', () => new IndexedDbFarcasterSignerKeyStore(new IDBFactory())],
] as const

describe.each(stores)('account deletion and the Farcaster signer key (%s)', (_name, makeStore) => {
  it("forgets the deleted user's signer key and keeps another user's", async () => {
    const deleted: string[] = []
    const { handlers, farcasterSignerKeys } = setup(makeStore(), deleted)
    await farcasterSignerKeys.putIfAbsent(await signerKey('user-alice'))
    await farcasterSignerKeys.putIfAbsent(await signerKey('user-bob'))

    await handlers['latchkey:account:delete']({ access_token: 'user-alice' })

    expect(deleted).toEqual(['user-alice'])
    expect(await farcasterSignerKeys.get(APP_ID, 'user-alice')).toBeNull()
    expect(await farcasterSignerKeys.get(APP_ID, 'user-bob')).not.toBeNull()
  })

  it('keeps the key when the server refuses the deletion', async () => {
    const { handlers, farcasterSignerKeys } = setup(makeStore(), [], true)
    await farcasterSignerKeys.putIfAbsent(await signerKey('user-alice'))

    await expect(
      handlers['latchkey:account:delete']({ access_token: 'user-alice' }),
    ).rejects.toThrow('refused')
    expect(await farcasterSignerKeys.get(APP_ID, 'user-alice')).not.toBeNull()
  })
})
