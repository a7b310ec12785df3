import { createHmac, timingSafeEqual } from 'node:crypto'
import type { WebhookEvent } from './events.ts'
import { secretKey } from './signature.ts'

/** Why a webhook request was refused; stable codes to `switch` on. */
export type WebhookVerificationErrorCode =
  /** `webhook-id`, `webhook-timestamp` or `webhook-signature` is missing. */
  | 'MISSING_HEADERS'
  /** `webhook-timestamp` is not a number of seconds. */
  | 'INVALID_TIMESTAMP'
  /** The timestamp is older than the replay window. */
  | 'TIMESTAMP_TOO_OLD'
  /** The timestamp is further in the future than the replay window. */
  | 'TIMESTAMP_TOO_NEW'
  /** No signature in `webhook-signature` matches. */
  | 'INVALID_SIGNATURE'
  /** The body is signed but is no webhook event (not a JSON object with a `type`). */
  | 'INVALID_PAYLOAD'
  /** The secret given to verifyWebhook is not a `whsec_…` secret (a configuration error). */
  | 'INVALID_SECRET'

/** A webhook request that must not be trusted (answer it 400, or 401 for a bad signature). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError'
  readonly code: WebhookVerificationErrorCode

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** Request headers: a fetch `Headers`, or Node's `req.headers`. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>

export interface VerifyWebhookOptions {
  /** The replay window each way, in seconds (default 300, as Standard Webhooks recommends). */
  toleranceSeconds?: number
  /** The current time (epoch ms or a Date; default: now). */
  now?: number | Date
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return Array.isArray(value) ? value.join(' ') : (value as string | undefined)
}

/**
 * Verifies a webhook request from a Latchkey server (the Standard Webhooks
 * scheme) and returns its event. Checks, in order: the three headers are
 * there; `webhook-timestamp` is within `toleranceSeconds` of now, in either
 * direction (a replayed request is refused once the window has passed);
 * one of the space-separated `v1,` signatures is the HMAC-SHA256 of
 * `${webhook-id}.${webhook-timestamp}.${body}` under the secret (compared in
 * constant time; during a secret rotation the server sends two). Pass the
 * body exactly as received: parsed and re-serialised JSON does not verify.
 * Receivers should also drop a `webhook-id` they have processed already
 * (a delivery is retried until it is answered 2xx).
 *
 * @throws {WebhookVerificationError} with a `code` saying why.
 *
 * @example
 * import { verifyWebhook } from '@latchkey/server'
 * app.post('/webhooks/latchkey', express.raw({ type: 'application/json' }), (req, res) => {
 *   const event = verifyWebhook(process.env.LATCHKEY_WEBHOOK_SECRET, req.headers, req.body)
 *   if (event.type === 'user.created') createProfile(event.data.user.id)
 *   res.sendStatus(204)
 * })
 */
export function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const { toleranceSeconds = 300 } = options
  const key = secretKey(secret)
  if (!key) throw new WebhookVerificationError('INVALID_SECRET', 'The webhook secret is malformed')
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('MISSING_HEADERS', 'Missing webhook headers')
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError('INVALID_TIMESTAMP', 'Invalid webhook-timestamp')
  const nowMs = options.now === undefined ? Date.now() : Number(options.now)
  const age = Math.floor(nowMs / 1000) - Number(timestamp)
  if (age > toleranceSeconds)
    throw new WebhookVerificationError('TIMESTAMP_TOO_OLD', 'The webhook timestamp is too old')
  if (age < -toleranceSeconds)
    throw new WebhookVerificationError('TIMESTAMP_TOO_NEW', 'The webhook timestamp is too new')

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : Buffer.from(rawBody)
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest()
  // Every candidate is compared (no early exit), each in constant time.
  let matched = false
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2)
    if (version !== 'v1' || !value) continue
    const given = Buffer.from(value, 'base64')
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true
  }
  if (!matched)
    throw new WebhookVerificationError('INVALID_SIGNATURE', 'No matching webhook signature')

  let event: unknown
  try {
    event = JSON.parse(body.toString('utf8'))
  } catch {
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'The webhook body is not JSON')
  }
  if (!event || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string')
    throw new WebhookVerificationError('INVALID_PAYLOAD', 'The webhook body is not an event')
  return event as WebhookEvent
}
