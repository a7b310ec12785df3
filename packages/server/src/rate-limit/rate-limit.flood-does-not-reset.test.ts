import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClock, getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  MEMORY_RATE_LIMIT_FULL_NOTICE_MS,
  MEMORY_RATE_LIMIT_MAX_KEYS,
  MemoryRateLimiter,
} from './memory.ts'

// Tracker issue 15, item 1: the audit flushed every cap of the memory limiter
// with 101 000 calls on random addresses (it dropped its oldest keys when
// full). A flood must never free a live limit: full of live windows, the
// limiter refuses new keys (fail closed), and memory stays bounded.
const HOUR = 60 * 60_000
const FLOOD = MEMORY_RATE_LIMIT_MAX_KEYS + 20_000

describe('MemoryRateLimiter under a flood of new keys', () => {
  it('keeps every live window, refuses new keys while full, stays bounded', async () => {
    const clock = createClock()
    const limiter = new MemoryRateLimiter({ now: clock.now })
    const victim = 'otp-attempt:app:email:victim@example.com'
    const sender = 'otp-send-ip:203.0.113.9'
    for (let i = 0; i < 20; i++) await limiter.hit(victim, 20, HOUR)
    for (let i = 0; i < 50; i++) await limiter.hit(sender, 50, HOUR)
    expect((await limiter.hit(victim, 20, HOUR)).allowed).toBe(false)
    expect((await limiter.hit(sender, 50, HOUR)).allowed).toBe(false)

    // One call a millisecond: two minutes of flooding, as in the audit.
    let refused = 0
    for (let i = 0; i < FLOOD; i++) {
      clock.advance(1)
      const r = await limiter.hit(`otp-attempt:app:email:${i}@flood.test`, 20, HOUR)
      if (!r.allowed) refused++
    }
    expect(limiter.size).toBe(MEMORY_RATE_LIMIT_MAX_KEYS)
    expect(refused).toBe(FLOOD - (MEMORY_RATE_LIMIT_MAX_KEYS - 2))

    // Both caps are still closed, and still counting.
    expect((await limiter.hit(victim, 20, HOUR)).allowed).toBe(false)
    expect((await limiter.hit(sender, 50, HOUR)).allowed).toBe(false)
    expect(await limiter.peek(victim)).toBe(22)
    // A new key is refused until the earliest window ends…
    const early = await limiter.hit('otp-attempt:app:email:new@example.com', 20, HOUR)
    expect(early).toMatchObject({
      allowed: false,
      remaining: 0,
      resetAt: Date.UTC(2030, 0, 1) + HOUR,
    })
    expect(await limiter.peek('otp-attempt:app:email:new@example.com')).toBe(0)

    // …then expired windows are swept first: the victim's and the sender's
    // (the earliest) free two slots, while every flood window is still live.
    clock.set(Date.UTC(2030, 0, 1) + HOUR)
    expect((await limiter.hit('otp-attempt:app:email:new@example.com', 20, HOUR)).allowed).toBe(
      true,
    )
    expect(await limiter.peek(victim)).toBe(0)
    expect(limiter.size).toBe(MEMORY_RATE_LIMIT_MAX_KEYS - 1)

    // Once every flood window has ended, memory is back to what is live.
    clock.advance(HOUR)
    await limiter.hit('after@example.com', 20, HOUR)
    expect(limiter.size).toBe(1)
  })

  it('a key already counted keeps counting while the limiter is full', async () => {
    const clock = createClock()
    const limiter = new MemoryRateLimiter({ now: clock.now, maxKeys: 3 })
    for (const key of ['a', 'b', 'c']) await limiter.hit(key, 2, 1_000)
    expect((await limiter.hit('d', 2, 1_000)).allowed).toBe(false)
    expect(await limiter.hit('a', 2, 1_000)).toMatchObject({ allowed: true, remaining: 0 })
    expect((await limiter.hit('a', 2, 1_000)).allowed).toBe(false)
    clock.advance(999)
    expect((await limiter.hit('d', 2, 1_000)).allowed).toBe(false)
    clock.advance(1)
    expect((await limiter.hit('d', 2, 1_000)).allowed).toBe(true)
    expect(limiter.size).toBe(1)
  })

  it('tells the operator it is full, at most once a minute, while refusing', async () => {
    const clock = createClock()
    const notices: Array<{ maxKeys: number; freesAt: number }> = []
    const limiter = new MemoryRateLimiter({
      now: clock.now,
      maxKeys: 2,
      onFull: (info) => notices.push(info),
    })
    await limiter.hit('a', 5, HOUR)
    await limiter.hit('b', 5, HOUR)
    expect(notices).toEqual([])
    for (let i = 0; i < 10; i++)
      expect((await limiter.hit(`new-${i}`, 5, HOUR)).allowed).toBe(false)
    expect(notices).toEqual([{ maxKeys: 2, freesAt: clock.now() + HOUR }])
    clock.advance(MEMORY_RATE_LIMIT_FULL_NOTICE_MS - 1)
    await limiter.hit('again', 5, HOUR)
    expect(notices).toHaveLength(1)
    clock.advance(1)
    await limiter.hit('again', 5, HOUR)
    expect(notices).toHaveLength(2)
  })
})

describe('the server after a flood', () => {
  let t: TestInstance
  beforeAll(async () => {
    t = await getTestInstance({
      trustProxy: true,
      rateLimits: {
        codeAttemptsPerIdentifier: { limit: 3, windowMs: HOUR },
        codeSendsPerIp: { limit: 2, windowMs: HOUR },
      },
    })
  })
  afterAll(() => t.close())

  it('the per-address attempt cap and the per-IP send cap stay closed; new keys are refused until windows end', async () => {
    const email = 'victim@example.com'
    const attacker = { 'x-forwarded-for': '203.0.113.9' }
    expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
    const code = await t.lastCode(email)
    for (let i = 0; i < 3; i++)
      await t.request(routes.emailAuthenticate, {
        body: { email, code: code === '000000' ? '111111' : '000000' },
      })
    const closed = { status: 429, body: { code: 'TOO_MANY_ATTEMPTS' } }
    expect(await t.request(routes.emailAuthenticate, { body: { email, code } })).toMatchObject(
      closed,
    )
    for (let i = 0; i < 2; i++)
      await t.request(routes.emailInit, { body: { email: `a${i}@example.com` }, headers: attacker })
    const sendCapped = { status: 429, body: { code: 'TOO_MANY_REQUESTS' } }
    expect(
      await t.request(routes.emailInit, { body: { email: 'a9@example.com' }, headers: attacker }),
    ).toMatchObject(sendCapped)

    // The flood, straight into the server's limiter: attempts on random addresses.
    const limiter = t.server.services.limiter as MemoryRateLimiter
    for (let i = 0; i < FLOOD; i++) {
      await limiter.hit(`otp-attempt:${t.app.id}:email:${i}@flood.test`, 3, HOUR)
      t.clock.advance(1)
    }
    expect(limiter.size).toBe(MEMORY_RATE_LIMIT_MAX_KEYS)

    expect(await t.request(routes.emailAuthenticate, { body: { email, code } })).toMatchObject(
      closed,
    )
    expect(
      await t.request(routes.emailInit, { body: { email: 'a10@example.com' }, headers: attacker }),
    ).toMatchObject(sendCapped)
    // Fail closed: a newcomer is refused too while the limiter is full of live windows.
    expect(
      await t.request(routes.emailInit, {
        body: { email: 'newcomer@example.com' },
        headers: { 'x-forwarded-for': '198.51.100.77' },
      }),
    ).toMatchObject(sendCapped)

    // When the windows end, everyone gets in again.
    t.clock.advance(HOUR)
    expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
    const fresh = await t.lastCode(email)
    expect(
      (await t.request(routes.emailAuthenticate, { body: { email, code: fresh } })).status,
    ).toBe(200)
  })
})
