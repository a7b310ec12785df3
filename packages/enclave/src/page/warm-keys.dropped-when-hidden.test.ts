import { ENCLAVE_WARM_KEY_HIDDEN_MS } from '@latchkey/protocol/constants'
import { describe, expect, it } from 'vitest'
import type { WalletKeys } from './wallet-keys.ts'
import { fakeDocument, manualClock, signatureOf, warmSetup } from './warm-keys.test-helper.ts'
import { createWarmKeys } from './warm-keys.ts'

// docs/mfa.md "Warm keys": a page left in the background for
// ENCLAVE_WARM_KEY_HIDDEN_MS (visibilitychange) drops its warm keys, even
// when its timers were frozen meanwhile.
async function warmedHiddenPage() {
  const clock = manualClock()
  const doc = fakeDocument()
  const warm = createWarmKeys({ clock, document: doc })
  const s = await warmSetup({ warmKeys: warm, now: clock.now })
  signatureOf(await s.sign())
  const keys = warm.get(s.token, s.address) as WalletKeys
  expect(keys).not.toBeNull()
  return { ...s, clock, doc, warm, keys }
}

describe('a hidden page', () => {
  it(`drops and wipes its warm keys once hidden for ${ENCLAVE_WARM_KEY_HIDDEN_MS} ms`, async () => {
    const s = await warmedHiddenPage()
    s.doc.setHidden(true)
    s.clock.advance(ENCLAVE_WARM_KEY_HIDDEN_MS - 1)
    expect(s.warm.size).toBe(1)
    s.clock.advance(1)
    expect(s.warm.size).toBe(0)
    expect(s.keys.isWiped).toBe(true)
    // Back in view, the next signature fetches the share again (the window is still open).
    s.doc.setHidden(false)
    signatureOf(await s.sign())
    expect(s.authShareFetches()).toBe(2)
  })

  it('keeps them when it comes back in view before that', async () => {
    const s = await warmedHiddenPage()
    s.doc.setHidden(true)
    s.clock.advance(ENCLAVE_WARM_KEY_HIDDEN_MS - 1)
    s.doc.setHidden(false)
    s.clock.advance(ENCLAVE_WARM_KEY_HIDDEN_MS)
    expect(s.warm.size).toBe(1)
    signatureOf(await s.sign())
    expect(s.authShareFetches()).toBe(1)
    // A second absence counts from its own start.
    s.doc.setHidden(true)
    s.clock.advance(ENCLAVE_WARM_KEY_HIDDEN_MS)
    expect(s.warm.size).toBe(0)
  })

  it('drops them on return when its timers were frozen in the background', async () => {
    const s = await warmedHiddenPage()
    s.doc.setHidden(true)
    s.clock.set(s.clock.now() + ENCLAVE_WARM_KEY_HIDDEN_MS + 5_000)
    expect(s.keys.isWiped).toBe(false)
    s.doc.setHidden(false)
    expect(s.warm.size).toBe(0)
    expect(s.keys.isWiped).toBe(true)
  })

  it('a signature asked while hidden too long (timers frozen) misses, and nothing new is kept', async () => {
    const s = await warmedHiddenPage()
    s.doc.setHidden(true)
    s.clock.set(s.clock.now() + ENCLAVE_WARM_KEY_HIDDEN_MS)
    signatureOf(await s.sign())
    expect(s.keys.isWiped).toBe(true)
    expect(s.authShareFetches()).toBe(2)
    expect(s.warm.size).toBe(0)
  })

  it('a key kept while hidden is dropped when the absence reaches the limit', async () => {
    const s = await warmedHiddenPage()
    s.warm.dropAll()
    s.doc.setHidden(true)
    s.clock.advance(30_000)
    signatureOf(await s.sign())
    expect(s.warm.size).toBe(1)
    s.clock.advance(ENCLAVE_WARM_KEY_HIDDEN_MS - 30_000)
    expect(s.warm.size).toBe(0)
  })
})
