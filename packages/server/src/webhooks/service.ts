import { randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import { Counter } from 'prom-client'
import type { Logger } from '../config.ts'
import type { SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'
import { isStoreUnavailable } from '../http/unavailable.ts'
import type { ServerMetrics } from '../metrics/registry.ts'
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  claimDueDeliveries,
  DEFAULT_RETRY_SCHEDULE_MS,
  purgeFinishedDeliveries,
  recordAttempt,
} from './claim.ts'
import { postWebhook } from './deliver.ts'
import { checkWebhookUrl, signingSecrets } from './endpoints.ts'
import type { WebhookEventData, WebhookEventType } from './events.ts'
import { enqueueWebhookEvent } from './outbox.ts'

/** Tuning of webhook delivery (docs: webhooks, "Delivery"). */
export interface WebhookOptions {
  /** How often each node looks for due deliveries, ms (default 1000; 0: no background worker). */
  pollIntervalMs?: number
  /** How long an attempt may wait for the answer, ms (default 15000). */
  timeoutMs?: number
  /** Waits after each failed attempt, ms (default {@link DEFAULT_RETRY_SCHEDULE_MS}). */
  retryScheduleMs?: readonly number[]
  /** Deliveries claimed per pass (default 20). */
  batchSize?: number
  /** The fetch attempts use (default: global fetch). */
  fetch?: typeof fetch
}

export interface EmitOptions {
  /** Write the event in this transaction (it is queued exactly if the transaction commits). */
  db?: Kysely<Database> | Transaction<Database>
}

/** Webhooks of a running server (`services.webhooks`). */
export interface Webhooks {
  /**
   * Queues an event for the app's endpoints that want it; returns its
   * `webhook-id`s (none when no enabled endpoint subscribes). Pass the
   * transaction that writes the event's own rows when there is one.
   *
   * @example
   * // after a delegated send went out (the lead's server-side sends):
   * await services.webhooks.emit(appId, 'transaction.sent', {
   *   user_id: userId, wallet: { address, chain_type: 'ethereum' }, caip2: 'eip155:8453', transaction_hash: hash,
   * })
   */
  emit<T extends WebhookEventType>(
    appId: string,
    type: T,
    data: WebhookEventData[T],
    options?: EmitOptions,
  ): Promise<string[]>
  /** One pass: claims the due deliveries and attempts them; returns how many were attempted. */
  deliverDue(): Promise<number>
  /** Stops the background worker; attempts in flight are aborted (and retried later). */
  close(): Promise<void>
}

export interface CreateWebhooksParameters {
  db: Kysely<Database>
  secrets: SecretBox
  now: () => number
  logger: Logger
  metrics: ServerMetrics
  /** Refuse to call http URLs (they are refused when set, too). */
  production: boolean
  options?: WebhookOptions
}

const DELIVERED_RETENTION_MS = 7 * 24 * 60 * 60_000
const FAILED_RETENTION_MS = 30 * 24 * 60 * 60_000
const PURGE_EVERY_MS = 60 * 60_000

/**
 * The webhook worker of one node: claims due outbox rows (webhooks/claim.ts)
 * every `pollIntervalMs`, and at once after an `emit`; attempts them in
 * parallel; records each result. Counts deliveries by outcome in
 * `latchkey_webhook_deliveries_total` when metrics are on. Logs name the
 * app, endpoint, message and the URL's origin — never a secret or a body.
 *
 * @example
 * const webhooks = createWebhooks({ db, secrets, now: Date.now, logger, metrics, production: true })
 * await webhooks.close() // on shutdown
 */
export function createWebhooks(parameters: CreateWebhooksParameters): Webhooks {
  const { db, secrets, now, logger, metrics, production, options = {} } = parameters
  const pollIntervalMs = options.pollIntervalMs ?? 1000
  const timeoutMs = options.timeoutMs ?? 15_000
  const schedule = options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS
  const batchSize = options.batchSize ?? 20
  // Longer than any attempt: a live worker never loses its lease.
  const leaseMs = timeoutMs + 60_000
  const counter = metrics.registry
    ? new Counter({
        name: 'latchkey_webhook_deliveries_total',
        help: 'Webhook delivery attempts, by outcome (delivered, retry, failed)',
        labelNames: ['outcome'] as const,
        registers: [metrics.registry],
      })
    : null
  for (const outcome of ['delivered', 'retry', 'failed']) counter?.inc({ outcome }, 0)
  const inFlight = new Set<AbortController>()
  let lastPurge = 0
  let closed = false

  async function attempt(delivery: ClaimedDelivery, token: string): Promise<void> {
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', delivery.endpoint_id)
      .executeTakeFirst()
    const controller = new AbortController()
    inFlight.add(controller)
    let outcome: AttemptOutcome
    let origin = ''
    try {
      let result: Awaited<ReturnType<typeof postWebhook>> | undefined
      let request: Parameters<typeof postWebhook>[0] | null = null
      if (!endpoint) result = { delivered: false, status: null, error: 'endpoint deleted' }
      else
        try {
          const url = checkWebhookUrl(endpoint.url, production)
          origin = new URL(url).origin
          request = {
            url,
            id: delivery.id,
            payload: delivery.payload,
            secrets: signingSecrets(secrets, endpoint, now()),
            now: now(),
            timeoutMs,
            signal: controller.signal,
            ...(options.fetch ? { fetch: options.fetch } : {}),
          }
        } catch (error) {
          // A URL refused here, or a secret that fails to unseal: a failed attempt, never a send.
          result = { delivered: false, status: null, error: (error as Error).message }
        }
      result ??= await postWebhook(request as Parameters<typeof postWebhook>[0])
      outcome = await recordAttempt(db, delivery, result, { now: now(), token, schedule })
      const fields = {
        app_id: delivery.app_id,
        endpoint_id: delivery.endpoint_id,
        webhook_id: delivery.id,
        attempt: delivery.attempts,
        origin,
        status: result.status,
        error: result.error,
      }
      if (outcome.outcome === 'retry')
        logger.info(
          `webhook delivery failed (${result.error}); retry in ${Math.round((outcome.nextAttemptAt - now()) / 1000)} s`,
          fields,
        )
      if (outcome.outcome === 'failed')
        logger.warn(`webhook delivery given up after ${delivery.attempts} attempts`, fields)
      if (outcome.outcome !== 'lost') counter?.inc({ outcome: outcome.outcome })
    } finally {
      inFlight.delete(controller)
    }
  }

  async function deliverDue(): Promise<number> {
    const at = now()
    if (at - lastPurge >= PURGE_EVERY_MS) {
      lastPurge = at
      await purgeFinishedDeliveries(db, at, {
        deliveredMs: DELIVERED_RETENTION_MS,
        failedMs: FAILED_RETENTION_MS,
      })
    }
    const token = randomBytes(16).toString('base64url')
    const claimed = await claimDueDeliveries(db, { now: at, leaseMs, limit: batchSize, token })
    await Promise.all(
      claimed.map((delivery) =>
        attempt(delivery, token).catch((error: Error) =>
          // The row stays leased; another pass retries it when the lease runs out.
          logger.error(`webhook delivery ${delivery.id} could not be recorded: ${error.message}`),
        ),
      ),
    )
    return claimed.length
  }

  // The background worker: one pass at a time; a full batch goes again at once.
  let timer: ReturnType<typeof setTimeout> | null = null
  let running: Promise<void> | null = null
  let storeDown = false
  const schedulePass = (delayMs: number) => {
    if (closed || pollIntervalMs <= 0 || running || timer) return
    timer = setTimeout(() => {
      timer = null
      running = deliverDue()
        .then((count) => {
          if (storeDown) logger.info('webhook deliveries resumed: the database answers again')
          storeDown = false
          return count >= batchSize
        })
        .catch((error: Error) => {
          // The database away (a restart, a failover): said once, as the
          // requests say it with 503s (http/unavailable.ts); anything else is an error.
          if (!isStoreUnavailable(error))
            logger.error(`webhook delivery pass failed: ${error.message}`)
          else if (!storeDown)
            logger.warn(`webhook deliveries paused, the database is unavailable: ${error.message}`)
          storeDown = storeDown || isStoreUnavailable(error)
          return false
        })
        .then((more) => {
          running = null
          schedulePass(more ? 0 : pollIntervalMs)
        })
    }, delayMs)
    timer.unref()
  }
  schedulePass(pollIntervalMs)

  return {
    async emit(appId, type, data, emitOptions = {}) {
      const ids = await enqueueWebhookEvent(emitOptions.db ?? db, appId, type, data, now())
      // Outside a transaction the rows are visible now: deliver without waiting a poll.
      if (ids.length > 0 && !emitOptions.db?.isTransaction && timer && !running) {
        clearTimeout(timer)
        timer = null
        schedulePass(0)
      }
      return ids
    },
    deliverDue,
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      for (const controller of inFlight) controller.abort()
      await running
    },
  }
}
