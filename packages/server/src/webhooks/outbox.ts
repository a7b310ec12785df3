import { randomBytes } from 'node:crypto'
import type { Insertable, Kysely, Transaction } from 'kysely'
import { precompile } from '../db/precompiled.ts'
import type { SqliteHandle } from '../db/sqlite-sync.ts'
import type { Database } from '../db/types.ts'
import type { WebhookEventData, WebhookEventType } from './events.ts'
import type { WebhookOutboxTable } from './tables.ts'

type Db = Kysely<Database> | Transaction<Database>

/** A `webhook-id`: `msg_` + 128 random bits (base64url); the same on every attempt. */
export const newMessageId = (): string => `msg_${randomBytes(16).toString('base64url')}`

// Compiled once (db/precompiled.ts): they run in every sign-up's transaction.
const enabledEndpoints = precompile<{ appId: string }>()((db, param) =>
  db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('app_id', '=', param('appId'))
    .where('enabled', '=', 1),
)

const insertOutboxRow = precompile<Insertable<WebhookOutboxTable>>()((db, param) =>
  db.insertInto('webhook_outbox').values({
    id: param('id'),
    endpoint_id: param('endpoint_id'),
    app_id: param('app_id'),
    event_type: param('event_type'),
    payload: param('payload'),
    status: param('status'),
    attempts: param('attempts'),
    next_attempt_at: param('next_attempt_at'),
    lease_token: param('lease_token'),
    lease_until: param('lease_until'),
    last_status: param('last_status'),
    last_error: param('last_error'),
    created_at: param('created_at'),
    finished_at: param('finished_at'),
  }),
)

const subscribed = (endpoints: Array<{ id: string; events: string }>, type: WebhookEventType) =>
  endpoints.filter((e) => (JSON.parse(e.events) as string[]).includes(type))

/** The app's enabled endpoints that subscribe to `type` (ids). */
export async function subscribedEndpoints(
  db: Db,
  appId: string,
  type: WebhookEventType,
): Promise<Array<{ id: string }>> {
  return subscribed(await enabledEndpoints.rows(db, { appId }), type)
}

/** An event's request body (Standard Webhooks: type, data, timestamp); fixed when queued. */
export const webhookPayload = (type: WebhookEventType, data: unknown, now: number): string =>
  JSON.stringify({ type, data, timestamp: new Date(now).toISOString() })

/** The outbox rows of one event, one per endpoint, due now. */
function outboxRows(
  endpoints: Array<{ id: string }>,
  appId: string,
  type: WebhookEventType,
  data: unknown,
  now: number,
): Insertable<WebhookOutboxTable>[] {
  const payload = webhookPayload(type, data, now)
  return endpoints.map((endpoint) => ({
    id: newMessageId(),
    endpoint_id: endpoint.id,
    app_id: appId,
    event_type: type,
    payload,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    lease_token: null,
    lease_until: null,
    last_status: null,
    last_error: null,
    created_at: now,
    finished_at: null,
  }))
}

/**
 * Queues an event for the app's enabled endpoints that subscribe to it: one
 * outbox row each, due now, written with `db` — pass the transaction that
 * writes the event's own rows, so the event is queued exactly when they
 * commit. `data` is built only when some endpoint wants the event (an app
 * without webhooks pays one indexed read). The body is fixed here; each
 * attempt signs it with its own timestamp. Returns the message ids.
 *
 * @example
 * await db.transaction().execute(async (tx) => {
 *   await insertUser.execute(tx, user)
 *   await enqueueWebhookEvent(tx, appId, 'user.created', () => ({ user: wire }), now)
 * })
 */
export async function enqueueWebhookEvent<T extends WebhookEventType>(
  db: Db,
  appId: string,
  type: T,
  data: WebhookEventData[T] | (() => WebhookEventData[T] | Promise<WebhookEventData[T]>),
  now: number,
): Promise<string[]> {
  const wanted = await subscribedEndpoints(db, appId, type)
  if (wanted.length === 0) return []
  const built = typeof data === 'function' ? await data() : data
  const rows = outboxRows(wanted, appId, type, built, now)
  for (const row of rows) await insertOutboxRow.execute(db, row)
  return rows.map((r) => String(r.id))
}

/**
 * {@link enqueueWebhookEvent}, synchronously on SQLite's connection, for a
 * change written in db/sqlite-sync.ts `inGroupCommit` (a sign-up).
 */
export function enqueueWebhookEventSync<T extends WebhookEventType>(
  db: Kysely<Database>,
  handle: SqliteHandle,
  appId: string,
  type: T,
  data: WebhookEventData[T] | (() => WebhookEventData[T]),
  now: number,
): string[] {
  const wanted = subscribed(enabledEndpoints.rowsSync(db, handle, { appId }), type)
  if (wanted.length === 0) return []
  const built = typeof data === 'function' ? data() : data
  const rows = outboxRows(wanted, appId, type, built, now)
  for (const row of rows) insertOutboxRow.rowsSync(db, handle, row)
  return rows.map((r) => String(r.id))
}
