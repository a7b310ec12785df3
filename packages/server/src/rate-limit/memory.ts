import type { RateLimiter, RateLimitResult } from './types.ts'

export interface MemoryRateLimiterOptions {
  /** Most keys kept; expired ones are swept first, then the oldest dropped (default 100 000). */
  maxKeys?: number
  now?: () => number
}

/** Single-process limiter for development and one-node deployments. Bounded memory. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>()
  readonly #maxKeys: number
  readonly #now: () => number
  #nextSweep = 0

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000
    this.#now = options.now ?? Date.now
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.#now()
    this.#sweep(now)
    let entry = this.#windows.get(key)
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs }
      this.#windows.delete(key)
      this.#windows.set(key, entry)
    }
    entry.count += 1
    return {
      allowed: entry.count <= limit,
      remaining: Math.max(0, limit - entry.count),
      resetAt: entry.resetAt,
    }
  }

  async peek(key: string): Promise<number> {
    const entry = this.#windows.get(key)
    return entry && entry.resetAt > this.#now() ? entry.count : 0
  }

  get size(): number {
    return this.#windows.size
  }

  #sweep(now: number): void {
    if (now < this.#nextSweep && this.#windows.size < this.#maxKeys) return
    this.#nextSweep = now + 60_000
    for (const [key, entry] of this.#windows) if (entry.resetAt <= now) this.#windows.delete(key)
    // Still full: drop the oldest insertions (Map keeps insertion order).
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < this.#maxKeys) break
      this.#windows.delete(key)
    }
  }
}
