import { createClient } from 'redis'
import type { RateLimiter, RateLimitResult } from './types.ts'

type Client = ReturnType<typeof createClient>

/**
 * Limiter shared by every node: INCR + PEXPIRE NX + PTTL in one MULTI, so the
 * first hit opens the window and no hit can leave a key without expiry.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #client: Client
  readonly #prefix: string
  #ready: Promise<unknown> | null = null

  constructor(url: string, options: { prefix?: string } = {}) {
    this.#client = createClient({ url })
    // Without a listener an unreachable Redis would crash the process.
    this.#client.on('error', () => {})
    this.#prefix = options.prefix ?? 'latchkey:rl:'
  }

  #connect(): Promise<unknown> {
    this.#ready ??= this.#client.connect()
    return this.#ready
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    await this.#connect()
    const k = this.#prefix + key
    const [count, , ttl] = (await this.#client
      .multi()
      .incr(k)
      .pExpire(k, windowMs, 'NX')
      .pTTL(k)
      .exec()) as unknown as [number, number, number]
    const n = Number(count)
    const ttlMs = Number(ttl) > 0 ? Number(ttl) : windowMs
    return { allowed: n <= limit, remaining: Math.max(0, limit - n), resetAt: Date.now() + ttlMs }
  }

  async peek(key: string): Promise<number> {
    await this.#connect()
    const value = await this.#client.get(this.#prefix + key)
    return value ? Number(value) : 0
  }

  async ping(): Promise<void> {
    await this.#connect()
    await this.#client.ping()
  }

  async close(): Promise<void> {
    if (this.#ready) {
      await this.#ready.catch(() => {})
      if (this.#client.isOpen) await this.#client.quit()
    }
  }
}
