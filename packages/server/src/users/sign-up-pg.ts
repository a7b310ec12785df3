import type { Insertable, Kysely } from 'kysely'
import { sql } from 'kysely'
import { precompile } from '../db/precompiled.ts'
import type { Database, LinkedAccountsTable, UsersTable } from '../db/types.ts'
import { newMessageId, webhookPayload } from '../webhooks/outbox.ts'

// A sign-up on PostgreSQL as one statement (one round trip) instead of BEGIN,
// the settings read, five inserts, the webhook subscription read and COMMIT:
// on PostgreSQL every statement is a socket write and a wait, and those cost
// more server CPU than the work itself (sessions/rotate-pg.ts did the same
// for the refresh). SQLite keeps its synchronous group commit (service.ts).

/** The first session of a new user, written with it. */
export interface FirstSessionRow {
  id: string
  refreshTokenHash: string
  expiresAt: number
}

interface SignUpParams extends Record<string, unknown> {
  appId: string
  userId: string
  now: number
  accountId: string
  type: string
  identifier: string
  data: string
  /** Null: no session is written (the caller starts one itself). */
  sessionId: string | null
  refreshTokenHash: string | null
  expiresAt: number | null
  messageId: string
  payload: string
}

/**
 * Writes the user, its first account, its first session and refresh token
 * (when given) and the `user.created` outbox row (when the app has an
 * enabled endpoint subscribed to it; one endpoint per app, migration 016),
 * only if the app has no sign-up gate: no allowlist switched on, no user
 * limit. Then there is nothing to check but the app's settings, which the
 * statement reads itself, so a gate switched on meanwhile is seen exactly as
 * the transaction's read would see it (users/sign-up.ts). An app with a gate
 * gets no row, and nothing written: the caller takes the transaction, which
 * checks the gate (and locks the app row for the user limit).
 *
 * Data-modifying CTEs run once and to completion whether or not the final
 * select reads them; each insert selects from the one before it, so all of
 * them write or none does. A taken account identifier fails the statement
 * with a unique violation, and nothing is written either.
 */
const signUpStatement = precompile<SignUpParams>()((db, param) => {
  const now = sql`cast(${param('now')} as bigint)`
  const appId = sql`cast(${param('appId')} as text)`
  const query = sql<{ user_id: string }>`
    with app as (
      select id from apps
      where id = ${appId}
        and (settings::jsonb -> 'allowlist' ->> 'enabled') is distinct from 'true'
        and (settings::jsonb ->> 'max_users') is null
    ), new_user as (
      insert into users (id, app_id, created_at, has_accepted_terms, is_guest)
      select cast(${param('userId')} as text), app.id, ${now}, 0, 0 from app
      returning id
    ), account as (
      insert into linked_accounts
        (id, user_id, app_id, type, identifier, data, created_at, first_verified_at, latest_verified_at)
      select cast(${param('accountId')} as text), new_user.id, ${appId},
        cast(${param('type')} as text), cast(${param('identifier')} as text),
        cast(${param('data')} as text), ${now}, ${now}, ${now}
      from new_user
      returning id
    ), session as (
      insert into sessions (id, app_id, user_id, created_at, last_used_at, expires_at, revoked_at)
      select cast(${param('sessionId')} as text), ${appId}, new_user.id, ${now}, ${now},
        cast(${param('expiresAt')} as bigint), null
      from new_user where cast(${param('sessionId')} as text) is not null
      returning id
    ), refresh_token as (
      insert into refresh_tokens (token_hash, session_id, created_at)
      select cast(${param('refreshTokenHash')} as text), session.id, ${now} from session
      returning session_id
    ), webhook as (
      insert into webhook_outbox (id, endpoint_id, app_id, event_type, payload, status, attempts,
        next_attempt_at, lease_token, lease_until, last_status, last_error, created_at, finished_at)
      select cast(${param('messageId')} as text), e.id, e.app_id, 'user.created',
        cast(${param('payload')} as text), 'pending', 0, ${now}, null, null, null, null, ${now}, null
      from webhook_endpoints e, new_user
      where e.app_id = ${appId} and e.enabled = 1 and e.events::jsonb @> '["user.created"]'::jsonb
      returning id
    )
    select new_user.id as user_id from new_user`
  return { compile: () => query.compile(db) }
})

/**
 * The sign-up of users/service.ts createUser in one statement (above).
 * Returns false, with nothing written, when the app has a sign-up gate (or
 * is unknown): the caller then runs the transaction that checks it.
 */
export async function signUpOnPostgres(
  db: Kysely<Database>,
  rows: {
    user: Insertable<UsersTable>
    account: Insertable<LinkedAccountsTable>
    session: FirstSessionRow | undefined
    /** The `user.created` event's data, queued if the app subscribes to it. */
    event: unknown
  },
): Promise<boolean> {
  const { user, account, session, event } = rows
  const now = Number(user.created_at)
  const row = await signUpStatement.first(db, {
    appId: user.app_id,
    userId: user.id,
    now,
    accountId: account.id,
    type: account.type,
    identifier: account.identifier,
    data: account.data,
    sessionId: session?.id ?? null,
    refreshTokenHash: session?.refreshTokenHash ?? null,
    expiresAt: session?.expiresAt ?? null,
    messageId: newMessageId(),
    payload: webhookPayload('user.created', event, now),
  })
  return row !== undefined
}
