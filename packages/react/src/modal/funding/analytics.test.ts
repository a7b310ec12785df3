// @vitest-environment node
import { setImmediate as nextIoTurn } from 'node:timers/promises'
import { createLatchkeyClient, createMemoryStorage } from '@latchkey/core'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useFundingClock } from '../../../../core/src/funding/clock.test-helper.ts'
import {
  type FakeMoonpay,
  moonpayTransaction,
  startFakeMoonpay,
} from '../../../../core/src/test/fake-moonpay.ts'
import {
  APP_ID,
  authResponse,
  createFakeFetch,
  json,
  type RecordedCall,
} from '../../../../core/src/test/fake-server.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { FundingAnalyticsEvent, onrampAnalytics } from './analytics.ts'
import { fundWalletOperations } from './operations.ts'

// Spec 03 §7 "Other": sdk_fiat_on_ramp_started, an on-ramp status event
// (ours: sdk_fiat_on_ramp_status) and sdk_fiat_on_ramp_completed_with_status,
// read here as the Latchkey server receives them (POST /api/v1/analytics_events).

const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
const EXT = 'ext-analytics'
let moonpay: FakeMoonpay
let coinbaseAnswers: string[]
const running: AbortController[] = []
beforeEach(async () => {
  moonpay = await startFakeMoonpay()
  coinbaseAnswers = []
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(async () => {
  for (const controller of running.splice(0)) controller.abort()
  vi.useRealTimers()
  vi.restoreAllMocks()
  await moonpay.close()
})

/** The Latchkey server as the client sees it: the funding routes, and analytics recorded. */
function latchkey(config: FundingConfig) {
  const fake = createFakeFetch((call: RecordedCall) => {
    if (call.url.endsWith('/api/v1/funding/moonpay/sign'))
      return json(200, {
        signed_url: `${moonpay.url}/widget?signature=x`,
        external_transaction_id: EXT,
      })
    if (call.url.endsWith('/api/v1/funding/coinbase/session'))
      return json(200, {
        url: 'https://pay.coinbase.com/buy?sessionToken=t',
        partner_user_id: 'pu_12345678',
      })
    if (call.url.includes('/api/v1/funding/coinbase/status'))
      return json(200, {
        status: coinbaseAnswers.length > 1 ? coinbaseAnswers.shift() : coinbaseAnswers[0],
      })
    return json(200, { success: true })
  })
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
    http: { maxRetries: 0 },
  })
  client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  const instance = {
    client,
    getUiState: () => ({ hostConfig: {}, appConfig: null }),
  } as unknown as LatchkeyInstance
  const ops = fundWalletOperations(instance, {
    address: WALLET,
    target: {
      chainType: 'ethereum',
      chain: {
        id: 1,
        name: 'Ethereum',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      } as never,
    },
    asset: 'native-currency',
    amount: '0.1',
    config,
  })
  /** The analytics events received so far: [name, payload without the timestamp]. */
  const events = () =>
    fake.calls
      .filter((c) => c.url.endsWith('/api/v1/analytics_events'))
      .map((c) => {
        const { event_name, payload } = c.body as {
          event_name: string
          payload: Record<string, unknown>
        }
        const { clientTimestamp: _at, ...rest } = payload
        return [event_name, rest] as const
      })
  return { ops, events }
}

const config = (): FundingConfig => ({
  options: [
    { method: 'card', provider: 'moonpay' },
    { method: 'exchange', provider: 'coinbase' },
  ],
  default_recommended_amount: '0.1',
  default_recommended_asset: 'native-currency',
  cross_chain_bridging_enabled: false,
  moonpay: { publishable_key: moonpay.publishableKey, sandbox: true, api_url: moonpay.url },
  bridge: null,
})

const ETH = { symbol: 'ETH', decimals: 18 }

/** Lets I/O run (never the clock) until `check` holds: a poll's answer, an event sent. */
async function until(check: () => boolean) {
  for (let turn = 0; turn < 100_000 && !check(); turn++) await nextIoTurn()
  expect(check()).toBe(true)
}
const signal = () => {
  const controller = new AbortController()
  running.push(controller)
  return controller.signal
}

describe('on-ramp analytics (spec 03 §7)', () => {
  it('sdk_fiat_on_ramp_started once the provider page is signed: provider, chain type, experience', async () => {
    const { ops, events } = latchkey(config())
    await ops.startMoonpay(ETH)
    await ops.startCoinbase(ETH, 'send')
    await vi.waitFor(() => expect(events()).toHaveLength(2))
    expect(events()).toEqual([
      [
        'sdk_fiat_on_ramp_started',
        { provider: 'moonpay', chainType: 'ethereum', experience: 'buy' },
      ],
      [
        'sdk_fiat_on_ramp_started',
        { provider: 'coinbase', chainType: 'ethereum', experience: 'send' },
      ],
    ])
  })

  it('MoonPay: sdk_fiat_on_ramp_status at each change (not each poll), then sdk_fiat_on_ramp_completed_with_status', async () => {
    const clock = useFundingClock()
    const { ops, events } = latchkey(config())
    const statuses: string[] = []
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'pending' })])
    ops.watchMoonpay(EXT, (s) => statuses.push(s), signal())
    await clock.elapse(5_000) // the start delay: first read, pending
    await until(() => statuses.length === 1 && events().length === 1)
    await clock.elapse(3_000) // pending again: no new event
    await until(() => statuses.length === 2)
    expect(events()).toEqual([
      [
        'sdk_fiat_on_ramp_status',
        { provider: 'moonpay', chainType: 'ethereum', status: 'pending' },
      ],
    ])
    moonpay.setTransactions(EXT, [moonpayTransaction({ status: 'completed' })])
    await clock.elapse(3_000)
    await until(() => events().length === 3)
    expect(events().slice(1)).toEqual([
      [
        'sdk_fiat_on_ramp_status',
        { provider: 'moonpay', chainType: 'ethereum', status: 'completed' },
      ],
      [
        'sdk_fiat_on_ramp_completed_with_status',
        expect.objectContaining({
          provider: 'moonpay',
          chainType: 'ethereum',
          status: 'completed',
          paymentMethod: 'credit_debit_card',
        }),
      ],
    ])
    // Nothing identifies the wallet or the purchase.
    expect(JSON.stringify(events())).not.toContain(WALLET)
    expect(JSON.stringify(events())).not.toContain(EXT)
  })

  it('MoonPay: three failed reads end with status serviceFailure in the completed event', async () => {
    const clock = useFundingClock()
    const { ops, events } = latchkey(config())
    moonpay.failNext(3)
    ops.watchMoonpay(EXT, () => {}, signal())
    await clock.elapse(5_000)
    await clock.elapse(3_000)
    await clock.elapse(3_000)
    await vi.waitFor(() =>
      expect(events().at(-1)).toEqual([
        'sdk_fiat_on_ramp_completed_with_status',
        { provider: 'moonpay', chainType: 'ethereum', status: 'serviceFailure' },
      ]),
    )
  })

  it('Coinbase: in the popup, after it, success; the completed event once', async () => {
    const clock = useFundingClock()
    const { ops, events } = latchkey(config())
    const popup = { closed: false }
    coinbaseAnswers = ['pending', 'pending', 'success']
    ops.watchCoinbase('pu_12345678', popup, () => {}, signal())
    await clock.elapse(8_000) // the start delay
    await clock.elapse(1_500) // pending, popup open
    popup.closed = true
    await clock.elapse(1_500) // pending, popup closed
    await clock.elapse(1_500) // success
    await vi.waitFor(() => expect(events()).toHaveLength(4))
    const base = { provider: 'coinbase', chainType: 'ethereum' }
    expect(events()).toEqual([
      [FundingAnalyticsEvent.onrampStatus, { ...base, status: 'pending-in-flow' }],
      [FundingAnalyticsEvent.onrampStatus, { ...base, status: 'pending-after-flow' }],
      [FundingAnalyticsEvent.onrampStatus, { ...base, status: 'success' }],
      [FundingAnalyticsEvent.onrampCompleted, { ...base, status: 'success' }],
    ])
  })

  it('sends the completed event at most once per purchase', () => {
    const sink = { trackEvent: vi.fn() }
    const track = onrampAnalytics(sink, { provider: 'coinbase', chainType: 'solana' })
    track.completed('closed')
    track.completed('closed')
    expect(sink.trackEvent.mock.calls).toEqual([
      [
        'sdk_fiat_on_ramp_completed_with_status',
        { provider: 'coinbase', chainType: 'solana', status: 'closed' },
      ],
    ])
  })
})
