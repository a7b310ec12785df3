import type { Kysely } from 'kysely'
import type { Logger } from '../config.ts'
import type { Database } from '../db/types.ts'
import { type PurgeExpiredOptions, purgeExpired } from './purge.ts'

export interface SchedulePurgeParameters {
  db: Kysely<Database>
  now: () => number
  /** Milliseconds between runs; 0 turns the job off. */
  intervalMs: number
  logger: Logger
  options?: PurgeExpiredOptions
}

/** Stops the job; resolves once a run in flight has finished (the database can then be closed). */
export type SchedulePurgeReturnType = () => Promise<void>

/**
 * Runs `purgeExpired` every `intervalMs` (first run one interval after the
 * start). The timer is `unref()`ed, so it never keeps the process alive; a run
 * still in flight when the next tick comes is not doubled. A failed run is
 * logged and the next tick tries again.
 *
 * @example
 * const stop = schedulePurge({ db, now: Date.now, intervalMs: 600_000, logger })
 * await stop() // on close
 */
export function schedulePurge(parameters: SchedulePurgeParameters): SchedulePurgeReturnType {
  const { db, now, intervalMs, logger, options } = parameters
  if (intervalMs <= 0) return async () => {}
  let running: Promise<void> | null = null
  const timer = setInterval(() => {
    if (running) return
    running = purgeExpired(db, now(), options)
      .then((counts) => {
        const total = Object.values(counts).reduce((sum, n) => sum + n, 0)
        if (total > 0) logger.info(`purged ${total} expired rows ${JSON.stringify(counts)}`)
      })
      .catch((error: Error) => logger.error(`purge of expired rows failed: ${error.message}`))
      .finally(() => {
        running = null
      })
  }, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
