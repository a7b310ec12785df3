import { afterEach, describe, expect, it } from 'vitest'
import { createLocalStorage, createMemoryStorage } from './storage.ts'

// docs/client.md "Sessions across tabs": the browser tells a tab about
// another tab's localStorage writes with a `storage` event on its window.

const storageEvent = (key: string | null, storageArea: Storage) =>
  new StorageEvent('storage', { key, storageArea })

afterEach(() => {
  localStorage.clear()
})

describe('createLocalStorage().watch', () => {
  it('reports the keys another tab changed in localStorage, and stops when asked', () => {
    const storage = createLocalStorage()
    const keys: Array<string | null> = []
    const stop = storage.watch?.((key) => keys.push(key))
    window.dispatchEvent(storageEvent('latchkey:token', localStorage))
    window.dispatchEvent(storageEvent(null, localStorage))
    // sessionStorage is another area.
    window.dispatchEvent(storageEvent('latchkey:token', sessionStorage))
    expect(keys).toEqual(['latchkey:token', null])
    stop?.()
    window.dispatchEvent(storageEvent('latchkey:refresh_token', localStorage))
    expect(keys).toEqual(['latchkey:token', null])
  })

  it('is not there for memory storage, which no other tab shares', () => {
    expect(createMemoryStorage().watch).toBeUndefined()
  })
})
