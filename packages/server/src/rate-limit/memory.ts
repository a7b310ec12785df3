import type { RateLimiter, RateLimitResult } from './types.ts'

/**
 * Most live windows the memory limiter holds (about 25 MB of keys and
 * counters). Full of unexpired windows it refuses new keys rather than
 * forget a live one: forgetting would reopen a cap (tracker issue 15).
 */
export const MEMORY_RATE_LIMIT_MAX_KEYS = 100_000

export interface MemoryRateLimiterOptions {
  /** Most live windows kept (default {@link MEMORY_RATE_LIMIT_MAX_KEYS}). */
  maxKeys?: number
  now?: () => number
  /**
   * Told when a new key is refused because every slot holds a live window
   * (at most once per {@link MEMORY_RATE_LIMIT_FULL_NOTICE_MS}): the server
   * logs it, so an operator learns that callers are being refused wholesale.
   */
  onFull?: (info: { maxKeys: number; freesAt: number }) => void
}

/** The shortest gap between two `onFull` notices. */
export const MEMORY_RATE_LIMIT_FULL_NOTICE_MS = 60_000

interface Window {
  key: string
  count: number
  resetAt: number
}

/**
 * Single-process limiter for development and one-node deployments. Memory is
 * bounded by `maxKeys`; expired windows are dropped first (a min-heap on
 * `resetAt`, so each costs O(log n) once). An unexpired window is never
 * dropped: when every slot holds one, a hit on a new key is refused (fail
 * closed) until the earliest window ends, while keys already counted keep
 * counting.
 *
 * @example
 * const limiter = new MemoryRateLimiter()
 * const r = await limiter.hit(`otp-send-ip:${ip}`, 50, 3_600_000)
 * if (!r.allowed) throw new ApiError('TOO_MANY_REQUESTS')
 */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, Window>()
  /** Every live window exactly once, earliest `resetAt` first. */
  readonly #expiries: Window[] = []
  readonly #maxKeys: number
  readonly #now: () => number
  readonly #onFull: MemoryRateLimiterOptions['onFull']
  #lastFullNotice = Number.NEGATIVE_INFINITY

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.#maxKeys = options.maxKeys ?? MEMORY_RATE_LIMIT_MAX_KEYS
    this.#now = options.now ?? Date.now
    this.#onFull = options.onFull
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.#now()
    this.#sweep(now)
    let entry = this.#windows.get(key)
    if (!entry) {
      const earliest = this.#expiries[0]
      if (earliest && this.#windows.size >= this.#maxKeys) {
        if (now - this.#lastFullNotice >= MEMORY_RATE_LIMIT_FULL_NOTICE_MS) {
          this.#lastFullNotice = now
          this.#onFull?.({ maxKeys: this.#maxKeys, freesAt: earliest.resetAt })
        }
        return { allowed: false, remaining: 0, resetAt: earliest.resetAt }
      }
      entry = { key, count: 0, resetAt: now + windowMs }
      this.#windows.set(key, entry)
      this.#push(entry)
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

  /** Windows held (live ones, plus expired ones not yet swept). */
  get size(): number {
    return this.#windows.size
  }

  /** Drops every window that has ended; they are the only ones ever dropped. */
  #sweep(now: number): void {
    const heap = this.#expiries
    for (let top = heap[0]; top && top.resetAt <= now; top = heap[0]) {
      this.#windows.delete(top.key)
      const last = heap.pop() as Window
      if (heap.length === 0) break
      heap[0] = last
      this.#siftDown(0)
    }
  }

  #push(entry: Window): void {
    const heap = this.#expiries
    let i = heap.push(entry) - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      const above = heap[parent] as Window
      if (above.resetAt <= entry.resetAt) break
      heap[i] = above
      i = parent
    }
    heap[i] = entry
  }

  #siftDown(i: number): void {
    const heap = this.#expiries
    const entry = heap[i] as Window
    for (;;) {
      let child = 2 * i + 1
      if (child >= heap.length) break
      const right = heap[child + 1]
      if (right && right.resetAt < (heap[child] as Window).resetAt) child += 1
      const below = heap[child] as Window
      if (below.resetAt >= entry.resetAt) break
      heap[i] = below
      i = child
    }
    heap[i] = entry
  }
}
