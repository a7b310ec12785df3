import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type FakeMoonpay, moonpayTransaction, startFakeMoonpay } from '../test/fake-moonpay.ts'
import { track, useFundingClock } from './clock.test-helper.ts'
import {
  CARD_STATUS_START_DELAY_MS,
  MOONPAY_POLL_INTERVAL_MS,
  type MoonpayStatusUpdate,
  watchMoonpayStatus,
} from './watchMoonpayStatus.ts'

// Spec 03 §4 "Card on-ramp status", §7 "Card on-ramp", §9: polled every 3 s
// after a 5 s start delay; 404 is not a failure; 3 other failures end with
// serviceFailure; polling stops on failed, completed or awaitingAuthorization.

const EXT = 'ext-7f3a'
let moonpay: FakeMoonpay
let warn: ReturnType<typeof vi.spyOn>
// Every watch a test starts ends with it: none polls into the next test.
const running: AbortController[] = []
beforeEach(async () => {
  moonpay = await startFakeMoonpay()
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(async () => {
  for (const controller of running.splice(0)) controller.abort()
  vi.useRealTimers()
  warn.mockRestore()
  await moonpay.close()
})

function watch(startDelayMs?: number) {
  const updates: MoonpayStatusUpdate[] = []
  const controller = new AbortController()
  running.push(controller)
  const done = track(
    watchMoonpayStatus({
      apiUrl: moonpay.url,
      publishableKey: moonpay.publishableKey,
      externalTransactionId: EXT,
      startDelayMs,
      onStatus: (update) => updates.push(update),
      signal: controller.signal,
    }),
  )
  return { updates, done, controller }
}

describe('watchMoonpayStatus', () => {
  it('waits the start delay, then reads the transaction by external id with the publishable key', async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'completed' })])
    const { done } = watch()
    await clock.elapse(CARD_STATUS_START_DELAY_MS.moonpay - 1)
    expect(moonpay.requests).toEqual([])
    await clock.elapse(1)
    await done
    expect(moonpay.requests).toEqual([`/v1/transactions/ext/${EXT}?apiKey=pk_test_latchkey`])
  })

  it("uses the caller's start delay (8 s for the other provider)", async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'completed' })])
    const { done } = watch(CARD_STATUS_START_DELAY_MS.coinbase)
    await clock.elapse(5_000)
    expect(moonpay.requests).toHaveLength(0)
    await clock.elapse(3_000, done)
    await done
    expect(moonpay.requests).toHaveLength(1)
  })

  it('reads status, payment method, currency code, amounts and fees, then stops on completed', async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [
      moonpayTransaction({
        status: 'completed',
        currency: { code: 'eth_base', type: 'crypto', precision: 4, name: 'ETH' },
      }),
    ])
    const { updates, done } = watch()
    await clock.elapse(5_000, done)
    expect(await done).toEqual({
      status: 'completed',
      providerStatus: 'completed',
      paymentMethod: 'credit_debit_card',
      cardPaymentType: 'card',
      currencyCode: 'eth_base',
      baseCurrencyAmount: 295.45,
      quoteCurrencyAmount: 0.1819,
      feeAmount: 3.99,
      extraFeeAmount: 0,
      networkFeeAmount: 0.56,
    })
    expect(updates.map((u) => u.status)).toEqual(['completed'])
  })

  it('polls every 3 s while pending, and 404 (not submitted yet) is not a failure', async () => {
    const clock = useFundingClock()
    const { updates, done } = watch()
    await clock.elapse(5_000)
    // Five 404s: more than the three failures allowed.
    for (let poll = 0; poll < 4; poll++) await clock.elapse(MOONPAY_POLL_INTERVAL_MS)
    await clock.untilTimerPending(done)
    expect(moonpay.requests).toHaveLength(5)
    expect(updates).toEqual([])
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'waitingPayment' })])
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS)
    await clock.untilTimerPending(done)
    expect(updates.map((u) => u.status)).toEqual(['pending'])
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'failed' })])
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS, done)
    expect((await done)?.status).toBe('failed')
    expect(updates.map((u) => u.status)).toEqual(['pending', 'failed'])
  })

  it('ends with serviceFailure at the third failed read', async () => {
    const clock = useFundingClock()
    moonpay.failNext(3, 500)
    const { updates, done } = watch()
    await clock.elapse(5_000)
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS)
    await clock.untilTimerPending(done)
    expect(updates).toEqual([])
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS, done)
    expect(await done).toEqual({ status: 'serviceFailure' })
    expect(updates).toEqual([{ status: 'serviceFailure' }])
    expect(moonpay.requests).toHaveLength(3)
  })

  it('allows two failures and carries on', async () => {
    const clock = useFundingClock()
    moonpay.failNext(2, 503)
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'completed' })])
    const { done } = watch()
    await clock.elapse(5_000)
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS)
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS, done)
    expect((await done)?.status).toBe('completed')
  })

  it('counts a wrong publishable key (401) as a failure', async () => {
    const clock = useFundingClock()
    const updates: MoonpayStatusUpdate[] = []
    const controller = new AbortController()
    running.push(controller)
    const done = track(
      watchMoonpayStatus({
        signal: controller.signal,
        apiUrl: moonpay.url,
        publishableKey: 'pk_test_wrong',
        externalTransactionId: EXT,
        onStatus: (update) => updates.push(update),
      }),
    )
    await clock.elapse(5_000)
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS)
    await clock.elapse(MOONPAY_POLL_INTERVAL_MS, done)
    expect((await done)?.status).toBe('serviceFailure')
  })

  it('treats waitingAuthorization on a credit or debit card as pending', async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'waitingAuthorization' })])
    const { updates, done, controller } = watch()
    await clock.elapse(5_000)
    await clock.untilTimerPending(done)
    expect(updates.map((u) => u.status)).toEqual(['pending'])
    expect(updates[0]?.providerStatus).toBe('waitingAuthorization')
    controller.abort()
    expect(await done).toBeUndefined()
  })

  it('keeps waitingAuthorization for another payment method (Processing payment)', async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [
      moonpayTransaction({ status: 'waitingAuthorization', paymentMethod: 'sepa_bank_transfer' }),
    ])
    const { updates, done, controller } = watch()
    await clock.elapse(5_000)
    await clock.untilTimerPending(done)
    expect(updates.map((u) => u.status)).toEqual(['waitingAuthorization'])
    controller.abort()
    await done
  })

  it('stops on awaitingAuthorization', async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'awaitingAuthorization' })])
    const { done } = watch()
    await clock.elapse(5_000, done)
    expect((await done)?.status).toBe('awaitingAuthorization')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('follows the most recently created of several transactions under one external id', async () => {
    const clock = useFundingClock()
    moonpay.setTransactions(EXT, [
      moonpayTransaction({ id: 'new', status: 'completed', createdAt: '2026-11-28T10:05:00.000Z' }),
      moonpayTransaction({ id: 'old', status: 'failed', createdAt: '2026-11-28T09:00:00.000Z' }),
    ])
    const { done } = watch()
    await clock.elapse(5_000, done)
    expect((await done)?.status).toBe('completed')
  })

  it('stops polling when aborted, during the start delay', async () => {
    const clock = useFundingClock()
    const { done, controller } = watch()
    await clock.untilTimerPending()
    controller.abort()
    expect(await done).toBeUndefined()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(moonpay.requests).toEqual([])
  })
})
