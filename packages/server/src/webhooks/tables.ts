// The webhook tables (migration 016), as db/types.ts lists them in Database.
/**
 * An app's webhook endpoint (migration 016, webhooks/endpoints.ts). `secret`
 * is the `whsec_…` signing secret, sealed (purpose webhook-secrets, associated
 * data binding app, endpoint and column); during a rotation the previous one
 * still signs until `previous_secret_expires_at`.
 */
export interface WebhookEndpointsTable {
  id: string
  app_id: string
  url: string
  /** JSON array of event types. */
  events: string
  enabled: number
  /** Sealed. */
  secret: string
  /** Sealed; null outside a rotation. */
  previous_secret: string | null
  previous_secret_expires_at: number | null
  created_at: number
  updated_at: number
}

/** One event to deliver to one endpoint (migration 016, webhooks/outbox.ts and claim.ts). */
export interface WebhookOutboxTable {
  /** The `webhook-id`: the same on every attempt. */
  id: string
  endpoint_id: string
  app_id: string
  event_type: string
  /** The request body, exactly as signed: `{ type, data, timestamp }`. */
  payload: string
  status: 'pending' | 'delivered' | 'failed'
  /** Attempts started (counted when claimed). */
  attempts: number
  next_attempt_at: number
  /** The claiming worker's token while its lease runs. */
  lease_token: string | null
  lease_until: number | null
  /** The last attempt's HTTP status; null for no answer. */
  last_status: number | null
  /** The last failure, short (no body, no URL). */
  last_error: string | null
  created_at: number
  /** Delivered or given up. */
  finished_at: number | null
}
