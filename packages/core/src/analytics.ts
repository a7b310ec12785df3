import { StorageKey } from '@latchkey/protocol/constants'
import { sessionRoutes } from '@latchkey/protocol/session-routes'
import type { HttpClient } from './http.ts'
import type { KeyValueStorage } from './storage.ts'

/** The client analytics id, created once per browser and kept in storage (spec 01 §3). */
export function getOrCreateAnalyticsId(storage: KeyValueStorage): string {
  let id = storage.get(StorageKey.analyticsId)
  if (!id) {
    id = crypto.randomUUID()
    storage.set(StorageKey.analyticsId, id)
  }
  return id
}

/**
 * Sends one analytics event. Never retried; failures are silent (spec 01 §7).
 */
export function trackEvent(
  http: HttpClient,
  eventName: string,
  clientId: string | null,
  payload: Record<string, unknown> = {},
): void {
  http
    .request(sessionRoutes.analyticsEvents, {
      body: {
        event_name: eventName,
        client_id: clientId,
        payload: { ...payload, clientTimestamp: new Date().toISOString() },
      },
      retry: false,
    })
    .catch(() => {})
}

// Apart, so that only wallet code (lazy) carries the names (docs/first-load.md).
export { WalletAnalyticsEvent } from './wallets/analytics-events.ts'
