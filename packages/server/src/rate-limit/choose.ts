import type { Logger } from '../config.ts'
import { MemoryRateLimiter } from './memory.ts'
import { RedisRateLimiter } from './redis.ts'
import type { RateLimiter } from './types.ts'

/**
 * The server's limiter: the one given, else Redis when `redisUrl` is set
 * (shared by every node; it logs when Redis goes away and comes back), else the in-process memory limiter, which logs a
 * warning when it is full and refusing new callers (rate-limit/memory.ts).
 *
 * @example
 * const { limiter, close } = chooseRateLimiter({ redisUrl: env.REDIS_URL, now, logger })
 */
export function chooseRateLimiter(options: {
  rateLimiter?: RateLimiter
  redisUrl?: string
  now: () => number
  logger: Pick<Logger, 'warn' | 'info'>
}): { limiter: RateLimiter; close?: () => Promise<void> } {
  if (options.rateLimiter) return { limiter: options.rateLimiter }
  if (options.redisUrl) {
    // While Redis is away: sends, codes and keys refused, reads served (rate-limit/policy.ts).
    const redis = new RedisRateLimiter(options.redisUrl, { logger: options.logger })
    return { limiter: redis, close: () => redis.close() }
  }
  const limiter = new MemoryRateLimiter({
    now: options.now,
    onFull: ({ maxKeys }) =>
      options.logger.warn(
        `rate limiter full: ${maxKeys} live windows; new callers are refused until windows end (set REDIS_URL for a shared, larger store)`,
      ),
  })
  return { limiter }
}
