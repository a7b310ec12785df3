import { createClient } from 'redis'
import type { Logger } from '../config.ts'
import { unavailable } from '../http/unavailable.ts'
import { failsOpen } from './policy.ts'
import type { RateLimiter, RateLimitResult } from './types.ts'

type Client = ReturnType<typeof createClient>

/** How long a call waits for Redis (a connect, a command) before calling it away. */
export const REDIS_TIMEOUT_MS = 1_000

export interface RedisRateLimiterOptions {
  /** Prefix of every key (default `latchkey:rl:`). */
  prefix?: string
  /** Told once when Redis stops answering and once when it answers again. */
  logger?: Pick<Logger, 'warn' | 'info'>
  timeoutMs?: number
}

/** Rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/**
 * Limiter shared by every node: INCR + PEXPIRE NX + PTTL in one MULTI, so the
 * first hit opens the window and no hit can leave a key without expiry.
 *
 * While Redis does not answer, each call gives up within `timeoutMs` (no
 * queue of commands waiting for a reconnect) and follows the limit's policy
 * (rate-limit/policy.ts): sends, codes and keys are refused with 503
 * SERVICE_UNAVAILABLE, reads are served uncounted. The client reconnects on
 * its own; the log says once that Redis went away and once that it is back.
 *
 * @example
 * const limiter = new RedisRateLimiter(process.env.REDIS_URL, { logger })
 * await limiter.hit(`otp-send-ip:${ip}`, 50, 3_600_000)
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #client: Client
  readonly #prefix: string
  readonly #logger: Pick<Logger, 'warn' | 'info'> | undefined
  readonly #timeoutMs: number
  #connecting: Promise<unknown> | null = null
  #state: 'unknown' | 'up' | 'down' = 'unknown'

  constructor(url: string, options: RedisRateLimiterOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? REDIS_TIMEOUT_MS
    this.#client = createClient({
      url,
      // Fail fast while disconnected instead of queueing until Redis is back.
      disableOfflineQueue: true,
      socket: { connectTimeout: this.#timeoutMs },
    })
    // Every failed reconnect emits 'error'; without a listener it would end the process.
    this.#client.on('error', (error: unknown) => this.#down(error))
    this.#client.on('ready', () => this.#up())
    this.#prefix = options.prefix ?? 'latchkey:rl:'
    this.#logger = options.logger
  }

  #down(error: unknown): void {
    if (this.#state === 'down') return
    this.#state = 'down'
    const reason = error instanceof Error ? error.message : String(error)
    this.#logger?.warn(
      `rate limiter: Redis is not answering (${reason}); code sends, code checks and key requests are refused with 503 until it is back, reads are served unlimited`,
    )
  }

  #up(): void {
    if (this.#state === 'down')
      this.#logger?.info('rate limiter: Redis answers again; every limit counts again')
    this.#state = 'up'
  }

  /** Resolves once connected; rejects while Redis is away (after at most `timeoutMs` at first). */
  async #connected(): Promise<void> {
    if (this.#client.isReady) return
    // connect() resolves on the first connection and never rejects while retrying.
    this.#connecting ??= this.#client.connect().catch(() => {})
    await within(this.#connecting, this.#timeoutMs).catch(() => {})
    if (!this.#client.isReady) throw new Error('Redis is not connected')
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      await this.#connected()
      return await within(command(), this.#timeoutMs)
    } catch (error) {
      this.#down(error)
      throw error
    }
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const k = this.#prefix + key
    try {
      const [count, , ttl] = (await this.#run(() =>
        this.#client.multi().incr(k).pExpire(k, windowMs, 'NX').pTTL(k).exec(),
      )) as unknown as [number, number, number]
      const n = Number(count)
      const ttlMs = Number(ttl) > 0 ? Number(ttl) : windowMs
      return { allowed: n <= limit, remaining: Math.max(0, limit - n), resetAt: Date.now() + ttlMs }
    } catch {
      if (failsOpen(key)) return { allowed: true, remaining: limit, resetAt: Date.now() + windowMs }
      throw unavailable()
    }
  }

  async peek(key: string): Promise<number> {
    try {
      const value = await this.#run(() => this.#client.get(this.#prefix + key))
      return value ? Number(value) : 0
    } catch {
      if (failsOpen(key)) return 0
      throw unavailable()
    }
  }

  async ping(): Promise<void> {
    await this.#run(() => this.#client.ping())
  }

  async close(): Promise<void> {
    if (!this.#connecting) return
    // Connected: let pending commands finish; reconnecting: stop at once.
    if (this.#client.isReady) await this.#client.close().catch(() => {})
    else this.#client.destroy()
    await this.#connecting
  }
}
