import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { type FakeRelay, startFakeRelay } from '../test/fake-relay.ts'
import { track, useFundingClock } from './clock.test-helper.ts'
import { type BridgeRequestStatus, createBridgeClient } from './createBridgeClient.ts'
import { BRIDGE_POLL_INTERVAL_MS, watchBridgeStatus } from './watchBridgeStatus.ts'

// Spec 03 §4 "Bridge status": delayed, waiting or pending are polled every
// 1 s; success calls the success handler; refund or failure raises a failure
// error that links to the refund status.

const hash = `0x${'cd'.repeat(32)}`
let relay: FakeRelay
let warn: ReturnType<typeof vi.spyOn>
const running: AbortController[] = []
beforeEach(async () => {
  relay = await startFakeRelay()
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(async () => {
  for (const controller of running.splice(0)) controller.abort()
  vi.useRealTimers()
  warn.mockRestore()
  await relay.close()
})

function watch(timeoutMs?: number) {
  const statuses: BridgeRequestStatus[] = []
  const controller = new AbortController()
  running.push(controller)
  const done = track(
    watchBridgeStatus({
      client: createBridgeClient({ apiUrl: relay.url }),
      hash,
      onStatus: (status) => statuses.push(status),
      timeoutMs,
      signal: controller.signal,
    }),
  )
  // The test reads the rejection itself; keep it from counting as unhandled meanwhile.
  done.catch(() => {})
  return { statuses, done, controller }
}

describe('watchBridgeStatus', () => {
  it('polls every 1 s through waiting, pending and delayed, and resolves on success', async () => {
    const clock = useFundingClock()
    relay.setStatuses(hash, ['waiting', 'pending', 'delayed', 'success'])
    const { statuses, done } = watch()
    await clock.untilTimerPending(done)
    expect(relay.statusReads).toHaveLength(1)
    await clock.elapse(BRIDGE_POLL_INTERVAL_MS)
    await clock.elapse(BRIDGE_POLL_INTERVAL_MS)
    await clock.elapse(BRIDGE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('success')
    expect(statuses).toEqual(['waiting', 'pending', 'delayed', 'success'])
  })

  it('reads pending while Relay does not know the deposit yet', async () => {
    const clock = useFundingClock()
    const { statuses, done } = watch()
    await clock.untilTimerPending(done)
    relay.setStatuses(hash, ['success'])
    await clock.elapse(BRIDGE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('success')
    expect(statuses).toEqual(['pending', 'success'])
  })

  it.each(['refund', 'refunded', 'failure'])(
    "raises BRIDGE_FAILED with the refund status link on '%s'",
    async (outcome) => {
      const clock = useFundingClock()
      relay.setStatuses(hash, ['pending', outcome])
      const { done } = watch()
      await clock.elapse(BRIDGE_POLL_INTERVAL_MS, done)
      const error = (await done.catch((e: unknown) => e)) as LatchkeyError
      expect(error).toBeInstanceOf(LatchkeyError)
      expect(error.code).toBe('BRIDGE_FAILED')
      expect(error.userMessage.title).toBe(
        'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.',
      )
      const details = error.details as { refundUrl: string; status: string; requestId: string }
      expect(details.status).toBe(outcome)
      expect(details.refundUrl).toBe(`https://relay.link/transaction/${details.requestId}`)
    },
  )

  it('retries a failed status read at the next poll', async () => {
    const clock = useFundingClock()
    relay.failNext(2, 502)
    relay.setStatuses(hash, ['success'])
    const { statuses, done } = watch()
    await clock.elapse(BRIDGE_POLL_INTERVAL_MS)
    await clock.elapse(BRIDGE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('success')
    expect(statuses).toEqual(['success'])
    expect(relay.statusReads).toHaveLength(3)
  })

  it('raises BRIDGE_TIMED_OUT, with the status link, when the bridge never settles', async () => {
    const clock = useFundingClock()
    relay.setStatuses(hash, ['delayed'])
    const { done } = watch(3 * BRIDGE_POLL_INTERVAL_MS)
    for (let poll = 0; poll < 4; poll++) await clock.elapse(BRIDGE_POLL_INTERVAL_MS, done)
    const error = (await done.catch((e: unknown) => e)) as LatchkeyError
    expect(error.code).toBe('BRIDGE_TIMED_OUT')
    expect((error.details as { refundUrl: string }).refundUrl).toMatch(
      /^https:\/\/relay\.link\/transaction\/0x/,
    )
    expect(relay.statusReads).toHaveLength(4)
  })

  it('stops when aborted', async () => {
    const clock = useFundingClock()
    const { done, controller } = watch()
    await clock.untilTimerPending(done)
    controller.abort()
    expect(await done).toBeUndefined()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(relay.statusReads).toHaveLength(1)
  })
})
