import { MFA_VERIFICATION_TTL_MS } from '@latchkey/protocol/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionToken } from './fake-mfa.test-helper.ts'
import { WalletKeys } from './wallet-keys.ts'
import { ALICE, manualClock, signatureOf, warmSetup } from './warm-keys.test-helper.ts'
import { createWarmKeys } from './warm-keys.ts'

// docs/mfa.md "Warm keys": a warm key lives until this session's MFA window
// ends (the server's `warm_until`), and not a moment longer: a timer wipes
// it, and a read after the end misses even if the timer has not run.
describe('at the window end (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('the key is wiped when the window ends, and the next signature needs MFA again', async () => {
    const warm = createWarmKeys()
    const s = await warmSetup({ warmKeys: warm })
    signatureOf(await s.sign())
    const keys = warm.get(s.token, s.address) as WalletKeys

    vi.advanceTimersByTime(MFA_VERIFICATION_TTL_MS - 1_000)
    signatureOf(await s.sign())
    expect(s.authShareFetches()).toBe(1)

    vi.advanceTimersByTime(1_000)
    expect(warm.size).toBe(0)
    expect(keys.isWiped).toBe(true)
    const answer = await s.sign()
    expect(answer.message.error).toMatchObject({
      code: 'MFA_REQUIRED',
      details: { mfa_methods: ['totp'] },
    })
    expect(s.authShareFetches()).toBe(2)
  })

  it('a new verification does not stretch a kept key: it ends with the window it came with', async () => {
    const warm = createWarmKeys()
    const s = await warmSetup({ warmKeys: warm })
    signatureOf(await s.sign())
    vi.advanceTimersByTime(10 * 60_000)
    expect((await s.verify()).message.event).toBe('latchkey:mfa:verify:result')
    vi.advanceTimersByTime(5 * 60_000)
    expect(warm.size).toBe(0)
    // The renewed window answers the share again, and the key is kept until its end.
    signatureOf(await s.sign())
    expect(s.authShareFetches()).toBe(2)
    expect(warm.size).toBe(1)
  })
})

describe('the window, on the cache itself', () => {
  const token = sessionToken(ALICE, 'session-a')
  const entropyId = '0x00000000000000000000000000000000000000a1'
  const keysOf = () => WalletKeys.of({ kind: 'hd', payload: new Uint8Array(16).fill(7) })

  it('a read after the end misses and wipes, even when the timer has not run (a throttled tab)', async () => {
    const clock = manualClock()
    const warm = createWarmKeys({ clock })
    const keys = await keysOf()
    expect(warm.keep(token, entropyId, keys, clock.now() + 60_000)).toBe(true)
    clock.set(clock.now() + 60_000)
    expect(warm.get(token, entropyId)).toBeNull()
    expect(keys.isWiped).toBe(true)
  })

  it('nothing is kept for a null or past warm_until', async () => {
    const clock = manualClock()
    const warm = createWarmKeys({ clock })
    expect(warm.keep(token, entropyId, await keysOf(), null)).toBe(false)
    expect(warm.keep(token, entropyId, await keysOf(), clock.now())).toBe(false)
    expect(warm.size).toBe(0)
  })

  it('a warm_until beyond 15 minutes from now (a page clock behind the server) is cut to 15 minutes', async () => {
    const clock = manualClock()
    const warm = createWarmKeys({ clock })
    const keys = await keysOf()
    expect(warm.keep(token, entropyId, keys, clock.now() + 3_600_000)).toBe(true)
    clock.advance(MFA_VERIFICATION_TTL_MS - 1)
    expect(warm.get(token, entropyId)).toBe(keys)
    clock.advance(1)
    expect(warm.size).toBe(0)
    expect(keys.isWiped).toBe(true)
  })
})
