import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { track, useFundingClock } from './clock.test-helper.ts'
import { BALANCE_POLL_INTERVAL_MS, type BalanceReading, watchBalance } from './watchBalance.ts'

// Spec 03 §4 "Manual receive": balance polled every 2 s; a balance above the
// first reading sets the funded flag; the wallet card turns green once the
// balance is at least the requested amount.

let warn: ReturnType<typeof vi.spyOn>
const running: AbortController[] = []
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  for (const controller of running.splice(0)) controller.abort()
  vi.useRealTimers()
  warn.mockRestore()
})

/** A balance the test sets; `read` answers it (or throws when `failing`). */
function wallet(initial: bigint) {
  const state = { balance: initial, failing: false, reads: 0 }
  const read = async () => {
    state.reads += 1
    if (state.failing) throw new Error('RPC down')
    return state.balance
  }
  return { state, read }
}

function start(read: () => Promise<bigint>) {
  const readings: Omit<BalanceReading, 'atLeast'>[] = []
  const green: boolean[] = []
  const controller = new AbortController()
  running.push(controller)
  const done = track(
    watchBalance({
      read,
      onChange: ({ atLeast, ...reading }) => {
        readings.push(reading)
        green.push(atLeast(1_000n))
      },
      signal: controller.signal,
    }),
  )
  return { readings, green, controller, done }
}

describe('watchBalance', () => {
  it('takes the first reading as the baseline, not funded', async () => {
    const clock = useFundingClock()
    const { state, read } = wallet(500n)
    const { readings } = start(read)
    await clock.untilTimerPending()
    expect(readings).toEqual([{ balance: 500n, baseline: 500n, funded: false }])
    expect(state.reads).toBe(1)
  })

  it('polls every 2 s and sets funded once the balance rises; green at the requested amount', async () => {
    const clock = useFundingClock()
    const { state, read } = wallet(500n)
    const { readings, green } = start(read)
    await clock.elapse(BALANCE_POLL_INTERVAL_MS - 1)
    expect(state.reads).toBe(1)
    state.balance = 800n
    await clock.elapse(1)
    await clock.untilTimerPending()
    expect(readings.at(-1)).toEqual({ balance: 800n, baseline: 500n, funded: true })
    expect(green).toEqual([false, false])
    state.balance = 1_200n
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    await clock.untilTimerPending()
    expect(readings.at(-1)).toEqual({ balance: 1_200n, baseline: 500n, funded: true })
    expect(green).toEqual([false, false, true])
  })

  it('reports only changes, and funded stays set if the balance drops back', async () => {
    const clock = useFundingClock()
    const { state, read } = wallet(0n)
    const { readings } = start(read)
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    await clock.untilTimerPending()
    expect(readings).toHaveLength(1)
    expect(state.reads).toBe(3)
    state.balance = 10n
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    state.balance = 0n
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    await clock.untilTimerPending()
    expect(readings.map((r) => [r.balance, r.funded])).toEqual([
      [0n, false],
      [10n, true],
      [0n, true],
    ])
  })

  it('skips a failed read and carries on with the next poll', async () => {
    const clock = useFundingClock()
    const { state, read } = wallet(100n)
    state.failing = true
    const { readings } = start(read)
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    await clock.untilTimerPending()
    expect(readings).toEqual([])
    state.failing = false
    await clock.elapse(BALANCE_POLL_INTERVAL_MS)
    await clock.untilTimerPending()
    // The first reading that worked is the baseline.
    expect(readings).toEqual([{ balance: 100n, baseline: 100n, funded: false }])
    expect(warn).toHaveBeenCalledOnce()
  })

  it('stops reading when aborted', async () => {
    const clock = useFundingClock()
    const { state, read } = wallet(1n)
    const { controller, done } = start(read)
    await clock.untilTimerPending()
    controller.abort()
    await done
    await vi.advanceTimersByTimeAsync(20_000)
    expect(state.reads).toBe(1)
  })
})
