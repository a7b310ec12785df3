import { POLL_ATTEMPTS, POLL_INTERVAL_MS } from '@latchkey/protocol/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { poll } from './poll.ts'

// Spec 01 §9: "Polling helper defaults 150 ms and 270 attempts".
describe('poll', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('defaults to 270 attempts, 150 ms apart, the first at once', async () => {
    expect([POLL_INTERVAL_MS, POLL_ATTEMPTS]).toEqual([150, 270])
    const check = vi.fn(() => undefined)
    let settled = false
    const result = poll(check).then((value) => {
      settled = true
      return value
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(check).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(149)
    expect(check).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(check).toHaveBeenCalledTimes(2)
    // 269 pauses of 150 ms after the first attempt.
    await vi.advanceTimersByTimeAsync(268 * 150 - 1)
    expect(check).toHaveBeenCalledTimes(269)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(check).toHaveBeenCalledTimes(270)
    await expect(result).resolves.toBeUndefined()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(check).toHaveBeenCalledTimes(270)
  })

  it('resolves with the first defined answer and stops asking', async () => {
    const answers = [undefined, undefined, 'ready']
    const check = vi.fn(async () => answers.shift())
    const result = poll(check, { intervalMs: 500, attempts: 10 })
    await vi.advanceTimersByTimeAsync(1_000)
    await expect(result).resolves.toBe('ready')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(check).toHaveBeenCalledTimes(3)
  })

  it('an error thrown by the check ends the poll with it', async () => {
    const check = vi.fn(() => {
      throw new Error('wallet locked')
    })
    await expect(poll(check)).rejects.toThrow('wallet locked')
    expect(check).toHaveBeenCalledTimes(1)
  })

  it('an aborted signal ends the poll at once with undefined', async () => {
    const controller = new AbortController()
    const check = vi.fn(() => undefined)
    const result = poll(check, { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(0)
    controller.abort()
    await expect(result).resolves.toBeUndefined()
    expect(check).toHaveBeenCalledTimes(1)
  })
})
