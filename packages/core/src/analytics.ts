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

/**
 * Wallet analytics events (spec 03 §7). Payloads carry no address or user id:
 * the event route is unauthenticated, so an event must not tie a browser's
 * analytics id to a wallet.
 */
export const WalletAnalyticsEvent = {
  /** The export page reported the first copy of a key: `{ chainType, exported }`. */
  keyExportCompleted: 'embedded_wallet_key_export_completed',
  /** An automatic-recovery wallet starts recovering on this device: `{}`. */
  pinlessRecoveryStarted: 'embedded_wallet_pinless_recovery_started',
  /** Any recovery on this device succeeded: `{ recoveryMethod }`. */
  recoveryCompleted: 'embedded_wallet_recovery_completed',
  /**
   * A failed post-login creation logged the user out (spec 02 §4):
   * `{ error, screen }`, the error's code and the screen it failed on.
   */
  creationFailureLogout: 'embedded_wallet_creation_failure_logout',
} as const
