import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { track, useFundingClock } from './clock.test-helper.ts'
import {
  COINBASE_POLL_INTERVAL_MS,
  type CoinbaseOnrampStatus,
  watchCoinbaseStatus,
} from './watchCoinbaseStatus.ts'
import { CARD_STATUS_START_DELAY_MS } from './watchMoonpayStatus.ts'

// Spec 03 §4 "Coinbase-style onramp status": polls every 1.5 s; closes of
// the popup are counted, at 3 the user returns to the funding method screen;
// a failure result moves to error.

type Answer = 'pending' | 'success' | 'failure' | 500
let answers: Answer[]
let warn: ReturnType<typeof vi.spyOn>
const running: AbortController[] = []
beforeEach(() => {
  answers = []
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  for (const controller of running.splice(0)) controller.abort()
  vi.useRealTimers()
  warn.mockRestore()
})

function start(popup: { closed: boolean }, startDelayMs?: number) {
  // Each status read takes the next scripted answer; the last one repeats.
  const fake = createFakeFetch(() => {
    const next = (answers.length > 1 ? answers.shift() : answers[0]) ?? 'pending'
    return next === 500
      ? json(500, { code: 'INTERNAL_ERROR', message: 'boom' })
      : json(200, { status: next })
  })
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
    // The HTTP client's own retries would hide the 500s this test scripts.
    http: { maxRetries: 0 },
  })
  client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  const statuses: CoinbaseOnrampStatus[] = []
  const controller = new AbortController()
  running.push(controller)
  const done = track(
    watchCoinbaseStatus({
      client,
      partnerUserId: 'pu_12345678',
      popup,
      onStatus: (status) => statuses.push(status),
      startDelayMs,
      signal: controller.signal,
    }),
  )
  return { statuses, done, controller, calls: fake.calls }
}

describe('watchCoinbaseStatus', () => {
  it('polls every 1.5 s: pending-in-flow while the popup is open, then success', async () => {
    const clock = useFundingClock()
    answers = ['pending', 'pending', 'success']
    const { statuses, done, calls } = start({ closed: false })
    await clock.elapse(COINBASE_POLL_INTERVAL_MS - 1)
    expect(calls).toHaveLength(0)
    await clock.elapse(1)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('success')
    expect(statuses).toEqual(['pending-in-flow', 'pending-in-flow', 'success'])
    expect(calls.map((c) => c.url)).toEqual(
      Array(3).fill('http://api.test/api/v1/funding/coinbase/status?partner_user_id=pu_12345678'),
    )
  })

  it('moves to error on a failure result', async () => {
    const clock = useFundingClock()
    answers = ['failure']
    const { statuses, done } = start({ closed: false })
    await clock.elapse(COINBASE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('error')
    expect(statuses).toEqual(['error'])
  })

  it('returns to the chooser (closed) at the third poll that finds the popup closed', async () => {
    const clock = useFundingClock()
    const popup = { closed: false }
    const { statuses, done } = start(popup)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    popup.closed = true
    await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('closed')
    expect(statuses).toEqual([
      'pending-in-flow',
      'pending-after-flow',
      'pending-after-flow',
      'closed',
    ])
  })

  it('still shows success that lands after the popup closed', async () => {
    const clock = useFundingClock()
    answers = ['pending', 'success']
    const { statuses, done } = start({ closed: true })
    await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('success')
    expect(statuses).toEqual(['pending-after-flow', 'success'])
  })

  it('ends in error after three failed status reads in a row, not before', async () => {
    const clock = useFundingClock()
    answers = [500, 500, 'pending', 500, 500, 500]
    const { statuses, done } = start({ closed: false })
    for (let poll = 0; poll < 5; poll++) await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('error')
    expect(statuses).toEqual(['pending-in-flow', 'error'])
  })

  it('waits the start delay (8 s for Coinbase) before the first poll', async () => {
    const clock = useFundingClock()
    answers = ['success']
    const { done, calls } = start({ closed: false }, CARD_STATUS_START_DELAY_MS.coinbase)
    await clock.elapse(CARD_STATUS_START_DELAY_MS.coinbase + COINBASE_POLL_INTERVAL_MS - 1)
    expect(calls).toHaveLength(0)
    await clock.elapse(1, done)
    expect(await done).toBe('success')
    expect(calls).toHaveLength(1)
  })

  it('notices a popup closed during the start delay within 1.5 s, without a status read', async () => {
    const clock = useFundingClock()
    const popup = { closed: false }
    const { statuses, done, calls } = start(popup, CARD_STATUS_START_DELAY_MS.coinbase)
    popup.closed = true
    await clock.elapse(COINBASE_POLL_INTERVAL_MS - 1)
    expect(statuses).toEqual([])
    await clock.elapse(1)
    expect(statuses).toEqual(['pending-after-flow'])
    expect(calls).toHaveLength(0)
    // The rest of the delay reports nothing more; then three closed reads end it.
    await clock.elapse(CARD_STATUS_START_DELAY_MS.coinbase - COINBASE_POLL_INTERVAL_MS)
    expect(statuses).toEqual(['pending-after-flow'])
    for (let poll = 0; poll < 2; poll++) await clock.elapse(COINBASE_POLL_INTERVAL_MS)
    await clock.elapse(COINBASE_POLL_INTERVAL_MS, done)
    expect(await done).toBe('closed')
    expect(calls).toHaveLength(3)
    expect(statuses).toEqual([
      'pending-after-flow',
      'pending-after-flow',
      'pending-after-flow',
      'closed',
    ])
  })

  it('stops when aborted', async () => {
    const clock = useFundingClock()
    const { done, controller, calls } = start({ closed: false })
    await clock.untilTimerPending()
    controller.abort()
    expect(await done).toBeUndefined()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(0)
  })
})
