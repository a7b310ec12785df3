import type { CardProvider } from '@latchkey/protocol/schemas'

/**
 * The on-ramp's analytics events (spec 03 §7 "Other"). Payloads name the
 * provider and the chain type, never the wallet, the user or the provider's
 * ids: the event route is unauthenticated (as core's WalletAnalyticsEvent).
 */
export const FundingAnalyticsEvent = {
  /** The provider's page was signed and opens in the popup: `{ provider, chainType, experience }`. */
  onrampStarted: 'sdk_fiat_on_ramp_started',
  /**
   * The purchase's status changed while 'Fund account' follows it (the
   * first reading, then each change, not every poll): `{ provider,
   * chainType, status }`. Spec 03 names "an on-ramp status event"; this is our name.
   */
  onrampStatus: 'sdk_fiat_on_ramp_status',
  /**
   * The status ended the watch (MoonPay completed, failed,
   * awaitingAuthorization, serviceFailure; Coinbase success, error, closed):
   * `{ provider, chainType, status }`, plus for MoonPay the payment method,
   * the currency code and the amounts. Once per purchase.
   */
  onrampCompleted: 'sdk_fiat_on_ramp_completed_with_status',
} as const

/** What sends the events: the core client's `trackEvent`. */
export interface AnalyticsSink {
  trackEvent(eventName: string, payload?: Record<string, unknown>): void
}

/**
 * The events of one purchase with `provider` on `chainType`.
 *
 * @example
 * const track = onrampAnalytics(client, { provider: 'moonpay', chainType: 'ethereum' })
 * track.started('buy'); track.status('pending'); track.completed('completed')
 */
export function onrampAnalytics(
  sink: AnalyticsSink,
  base: { provider: CardProvider; chainType: 'ethereum' | 'solana' },
) {
  let last: string | undefined
  let ended = false
  return {
    started(experience: 'buy' | 'send') {
      sink.trackEvent(FundingAnalyticsEvent.onrampStarted, { ...base, experience })
    },
    status(status: string) {
      if (status === last) return
      last = status
      sink.trackEvent(FundingAnalyticsEvent.onrampStatus, { ...base, status })
    },
    completed(status: string, details: Record<string, unknown> = {}) {
      if (ended) return
      ended = true
      sink.trackEvent(FundingAnalyticsEvent.onrampCompleted, { ...details, ...base, status })
    },
  }
}
