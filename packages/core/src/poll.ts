import { POLL_ATTEMPTS, POLL_INTERVAL_MS } from '@latchkey/protocol/constants'
import { sleep } from './sleep.ts'

export interface PollOptions {
  /** Time between two attempts (default POLL_INTERVAL_MS, 150 ms). */
  intervalMs?: number
  /** Attempts in all, the first one at once (default POLL_ATTEMPTS, 270). */
  attempts?: number
  /** Ends the poll early; it then resolves with `undefined`. */
  signal?: AbortSignal
}

/**
 * The one polling helper (spec 01 §9: 150 ms apart, 270 attempts by
 * default): calls `check` until it returns something other than `undefined`
 * and resolves with that, or with `undefined` once the attempts ran out or
 * `signal` aborted. The first attempt runs at once; an error thrown by
 * `check` ends the poll with that error. Use it only where nothing announces
 * the change (a wallet that fills its accounts a moment after connecting).
 *
 * @example
 * const accounts = await poll(async () => {
 *   const list = await provider.request({ method: 'eth_accounts' })
 *   return list.length ? list : undefined
 * }, { intervalMs: 500, attempts: 10 })
 */
export async function poll<T>(
  check: () => T | undefined | Promise<T | undefined>,
  { intervalMs = POLL_INTERVAL_MS, attempts = POLL_ATTEMPTS, signal }: PollOptions = {},
): Promise<T | undefined> {
  for (let attempt = 1; attempt <= attempts && !signal?.aborted; attempt++) {
    const value = await check()
    if (value !== undefined) return value
    if (attempt < attempts) await sleep(intervalMs, signal)
  }
  return undefined
}
