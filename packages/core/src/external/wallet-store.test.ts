import { StorageKey } from '@latchkey/protocol/constants'
import { afterEach, describe, expect, it } from 'vitest'
import {
  APP_ID,
  create,
  fakeEthereumWallet,
  installEthereum,
  resetExternalWalletFakes,
} from '../test/external-wallets.ts'
import { hasStoredWalletConnections } from './wallet-store.ts'

afterEach(() => {
  resetExternalWalletFakes()
})

describe('recent() and hasStoredWalletConnections', () => {
  it('recent() is null for a missing or unreadable value', () => {
    const { wallets, storage } = create()
    expect(wallets.recent()).toBeNull()
    storage.set(StorageKey.recentWallet.replace('{appId}', APP_ID), 'garbage')
    expect(wallets.recent()).toBeNull()
  })

  it('records are kept per app id', async () => {
    const key = installEthereum(fakeEthereumWallet())
    const { wallets, storage } = create()
    await wallets.connect(key, 'ethereum')
    expect(hasStoredWalletConnections(storage, APP_ID)).toBe(true)
    expect(hasStoredWalletConnections(storage, 'otherappaaaaaaaaaaaaaaaaa')).toBe(false)
  })
})
