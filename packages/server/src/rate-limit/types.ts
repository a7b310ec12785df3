/** Outcome of one hit on a fixed-window counter. */
export interface RateLimitResult {
  allowed: boolean
  remaining: number
  /** Epoch ms when the window resets. */
  resetAt: number
}

/**
 * Fixed-window counters shared by every node (Redis) or one process (memory).
 *
 * @example
 * const r = await limiter.hit(`send:${ip}`, 50, 3_600_000)
 * if (!r.allowed) throw new ApiError('TOO_MANY_REQUESTS')
 */
export interface RateLimiter {
  /** Counts one hit on `key` and says whether it is within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>
  /** Current count of `key` in its window, without counting (0 when none). */
  peek(key: string): Promise<number>
  /** Resolves when the store answers (Redis PING); `GET /ready` calls it. Absent: nothing to ask. */
  ping?(): Promise<void>
  close?(): Promise<void>
}
