import { randomBytes } from 'node:crypto'
import { createClient } from 'redis'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryRateLimiter } from './memory.ts'
import { RedisRateLimiter } from './redis.ts'

describe('MemoryRateLimiter', () => {
  it('counts within a window and resets after it', async () => {
    let now = 1_000
    const limiter = new MemoryRateLimiter({ now: () => now })
    for (let i = 1; i <= 3; i++)
      expect(await limiter.hit('k', 3, 1_000)).toMatchObject({
        allowed: true,
        remaining: 3 - i,
        resetAt: 2_000,
      })
    expect((await limiter.hit('k', 3, 1_000)).allowed).toBe(false)
    expect(await limiter.peek('k')).toBe(4)
    now = 2_000
    expect(await limiter.peek('k')).toBe(0)
    expect((await limiter.hit('k', 3, 1_000)).allowed).toBe(true)
  })

  it('stays bounded: expired entries are swept, new keys refused while full of live ones', async () => {
    let now = 0
    const limiter = new MemoryRateLimiter({ now: () => now, maxKeys: 100 })
    for (let i = 0; i < 500; i++) await limiter.hit(`k${i}`, 1, 10)
    expect(limiter.size).toBeLessThanOrEqual(100)
    now = 1_000_000
    await limiter.hit('fresh', 1, 10)
    expect(limiter.size).toBe(1)
  })
})

describe('RedisRateLimiter (127.0.0.1:6379)', () => {
  const url = 'redis://127.0.0.1:6379'
  const prefix = `latchkey-test:${randomBytes(6).toString('hex')}:`
  const limiter = new RedisRateLimiter(url, { prefix })
  // Windows live on Redis's clock: a second connection reads their expiry and ends them.
  const redis = createClient({ url })
  beforeAll(() => redis.connect())
  afterAll(async () => {
    await limiter.close()
    await redis.quit()
  })
  // `resetAt` is read from Date.now(): frozen, it can be compared exactly.
  const NOW = Date.UTC(2030, 0, 1)
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(NOW)
  })
  afterEach(() => vi.useRealTimers())

  it('counts hits atomically across concurrent callers', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => limiter.hit('burst', 5, 10_000)),
    )
    expect(results.filter((r) => r.allowed)).toHaveLength(5)
    expect(await limiter.peek('burst')).toBe(20)
    expect(Math.min(...results.map((r) => r.remaining))).toBe(0)
  })

  it('opens the window on the first hit and expires it', async () => {
    const first = await limiter.hit('window', 1, 60_000)
    expect(first.allowed).toBe(true)
    expect(first.resetAt).toBeGreaterThan(NOW)
    expect(first.resetAt).toBeLessThanOrEqual(NOW + 60_000)
    // The key expires with the window: Redis drops it, nothing has to.
    const ttl = await redis.pTTL(`${prefix}window`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(60_000)
    expect((await limiter.hit('window', 1, 60_000)).allowed).toBe(false)
    // The window ends (its expiry moved to the past), and the next hit opens a new one.
    await redis.pExpireAt(`${prefix}window`, 1)
    const next = await limiter.hit('window', 1, 60_000)
    expect(next.allowed).toBe(true)
    expect(next.remaining).toBe(0)
    expect(await limiter.peek('window')).toBe(1)
  })

  it('a later hit does not extend the window (PEXPIRE NX)', async () => {
    const a = await limiter.hit('nx', 10, 1_000)
    const b = await limiter.hit('nx', 10, 5_000)
    expect(b.resetAt).toBeLessThanOrEqual(a.resetAt)
    expect(await redis.pTTL(`${prefix}nx`)).toBeLessThanOrEqual(1_000)
  })
})
