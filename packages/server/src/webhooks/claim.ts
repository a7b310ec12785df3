import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'

/*
 * Workers on any number of nodes share the outbox. A worker claims due rows
 * with one conditional UPDATE that sets its lease token and deadline; a row
 * another worker claimed first no longer matches the conditions (SQLite runs
 * one writer at a time; PostgreSQL re-checks them on the row it waited for),
 * so no two workers attempt one row at once. Results are written only under
 * the worker's own token: a worker whose lease ran out changes nothing.
 */

/**
 * The retry schedule: the wait after each failed attempt, in ms. The first
 * attempt is at once; after the last wait's attempt fails the event is
 * given up (status failed). 7 attempts over about 17.6 hours.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 60 * 60_000,
  5 * 60 * 60_000,
  10 * 60 * 60_000,
]

export interface ClaimedDelivery {
  id: string
  endpoint_id: string
  app_id: string
  payload: string
  /** This attempt's number, from 1. */
  attempts: number
}

/**
 * Claims up to `limit` due deliveries of enabled endpoints for `leaseMs`
 * under `token`; counts the attempt. A disabled endpoint's deliveries wait
 * (they are neither attempted nor counted) until it is enabled again.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  parameters: { now: number; leaseMs: number; limit: number; token: string },
): Promise<ClaimedDelivery[]> {
  const { now, leaseMs, limit, token } = parameters
  // A read first: an idle poll writes nothing (SQLite's write lock stays free).
  const due = await db
    .selectFrom('webhook_outbox')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_outbox.endpoint_id')
    .select('webhook_outbox.id')
    .where('webhook_outbox.status', '=', 'pending')
    .where('webhook_outbox.next_attempt_at', '<=', now)
    .where((eb) =>
      eb.or([
        eb('webhook_outbox.lease_until', 'is', null),
        eb('webhook_outbox.lease_until', '<=', now),
      ]),
    )
    .where('webhook_endpoints.enabled', '=', 1)
    .orderBy('webhook_outbox.next_attempt_at')
    .limit(limit)
    .execute()
  if (due.length === 0) return []
  return (
    db
      .updateTable('webhook_outbox')
      .set((eb) => ({
        lease_token: token,
        lease_until: now + leaseMs,
        attempts: eb('attempts', '+', 1),
      }))
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      // The same conditions again: whatever another worker claimed meanwhile is skipped.
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .returning(['id', 'endpoint_id', 'app_id', 'payload', 'attempts'])
      .execute()
  )
}

/** What one attempt came to. */
export interface AttemptResult {
  delivered: boolean
  /** The HTTP status; null without an answer. */
  status: number | null
  /** Why it failed, short; null when delivered. */
  error: string | null
}

/** What the row became: delivered, retried at `nextAttemptAt`, or given up. */
export type AttemptOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; nextAttemptAt: number }
  | { outcome: 'failed' }
  /** The lease ran out meanwhile: another worker has the row; nothing written. */
  | { outcome: 'lost' }

/** Records an attempt under the worker's lease; schedules the retry or gives up. */
export async function recordAttempt(
  db: Kysely<Database>,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  parameters: { now: number; token: string; schedule: readonly number[] },
): Promise<AttemptOutcome> {
  const { now, token, schedule } = parameters
  const wait = schedule[delivery.attempts - 1]
  const outcome: AttemptOutcome = result.delivered
    ? { outcome: 'delivered' }
    : wait === undefined
      ? { outcome: 'failed' }
      : { outcome: 'retry', nextAttemptAt: now + wait }
  const updated = await db
    .updateTable('webhook_outbox')
    .set({
      status: outcome.outcome === 'retry' ? 'pending' : outcome.outcome,
      ...(outcome.outcome === 'retry' ? { next_attempt_at: outcome.nextAttemptAt } : {}),
      finished_at: outcome.outcome === 'retry' ? null : now,
      lease_token: null,
      lease_until: null,
      last_status: result.status,
      last_error: result.error,
    })
    .where('id', '=', delivery.id)
    .where('lease_token', '=', token)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1 ? outcome : { outcome: 'lost' }
}

/** Deletes delivered rows after `deliveredMs` and given-up ones after `failedMs` (their payloads hold user data). */
export async function purgeFinishedDeliveries(
  db: Kysely<Database>,
  now: number,
  retention: { deliveredMs: number; failedMs: number },
): Promise<number> {
  const result = await db
    .deleteFrom('webhook_outbox')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('status', '=', 'delivered'),
          eb('finished_at', '<=', now - retention.deliveredMs),
        ]),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '<=', now - retention.failedMs)]),
      ]),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
