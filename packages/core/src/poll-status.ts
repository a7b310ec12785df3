import { LatchkeyError } from './errors.ts'

export interface PollStatusOptions {
  /** Time between the end of one check and the start of the next. */
  intervalMs: number
  /** After this long the poll rejects with `timeoutError()`. */
  timeoutMs: number
  timeoutError: () => unknown
  /** Stops polling; the promise rejects with the signal's reason. */
  signal?: AbortSignal
}

/** A check that failed on the way (network, timeout, 5xx) is tried again at the next interval. */
const isTransient = (error: unknown) =>
  error instanceof LatchkeyError &&
  (error.code === 'NETWORK_ERROR' ||
    error.code === 'TIMEOUT' ||
    (error.status !== undefined && error.status >= 500))

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError')

/**
 * Asks a server for a status until it is final, for the flows where a user
 * acts elsewhere (a Farcaster app) and nothing announces it: calls `check`
 * at once, then `intervalMs` after each answer, and resolves with the first
 * value that is not `undefined`. Rejects with what `check` throws (a final
 * refusal), except failures on the way (network, timeout, 5xx), which are
 * polled through; with `timeoutError()` after `timeoutMs`; with the
 * signal's reason when aborted. A check still in flight when the poll ends
 * is ignored.
 *
 * @example
 * const signer = await pollStatus(async () => {
 *   const s = await getFarcasterSignerStatus(client, key)
 *   return s.status === 'approved' ? s : undefined
 * }, { intervalMs: 2_000, timeoutMs: 300_000, timeoutError: () => new LatchkeyError('FARCASTER_TIMEOUT') })
 */
export function pollStatus<T>(
  check: () => Promise<T | undefined>,
  { intervalMs, timeoutMs, timeoutError, signal }: PollStatusOptions,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false
    let next: ReturnType<typeof setTimeout> | undefined
    const finish = (settle: () => void) => {
      if (done) return
      done = true
      clearTimeout(next)
      clearTimeout(deadline)
      signal?.removeEventListener('abort', onAbort)
      settle()
    }
    const onAbort = () => finish(() => reject(abortReason(signal as AbortSignal)))
    const deadline = setTimeout(() => finish(() => reject(timeoutError())), timeoutMs)
    const poll = async () => {
      try {
        const value = await check()
        if (done) return
        if (value !== undefined) return finish(() => resolve(value))
      } catch (error) {
        if (done) return
        if (!isTransient(error)) return finish(() => reject(error))
      }
      next = setTimeout(poll, intervalMs)
    }
    if (signal?.aborted) return onAbort()
    signal?.addEventListener('abort', onAbort, { once: true })
    void poll()
  })
}
