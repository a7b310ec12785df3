import { setImmediate as nextIoTurn } from 'node:timers/promises'
import { vi } from 'vitest'

/**
 * Fake timers for the funding pollers' tests: only setTimeout is faked, so
 * real HTTP to the local fakes still completes. `elapse(ms)` first waits
 * (turn by turn of the event loop, never by the clock) until the poller has
 * scheduled its next wait, then moves the fake clock.
 */
export function useFundingClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  return {
    /** Waits until a poller's timer is pending (or `done` settled), then advances `ms`. */
    async elapse(ms: number, done?: { settled: boolean }) {
      await untilTimerPending(done)
      await vi.advanceTimersByTimeAsync(ms)
    },
    untilTimerPending,
  }
}

/** Lets I/O run until a fake timer is pending; gives up (throws) after 100 000 loop turns. */
export async function untilTimerPending(done?: { settled: boolean }) {
  for (let turn = 0; turn < 100_000; turn++) {
    if (vi.getTimerCount() > 0 || done?.settled) return
    await nextIoTurn()
  }
  throw new Error('no poll was scheduled')
}

/** Wraps a promise with a `settled` flag, for `elapse`. */
export function track<T>(promise: Promise<T>): Promise<T> & { settled: boolean } {
  const tracked = promise.finally(() => {
    tracked.settled = true
  }) as Promise<T> & { settled: boolean }
  tracked.settled = false
  return tracked
}
