import type { RecoveryMethod, UserWire } from '@latchkey/protocol'
import { type Kysely, type Selectable, sql } from 'kysely'
import { precompile } from '../db/precompiled.ts'
import type { Database, LinkedAccountsTable, UsersTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { userWireFromRows } from '../users/service.ts'

// The first use of a refresh token on PostgreSQL, as one statement (one round
// trip) instead of BEGIN, claim, touch, insert, COMMIT and then two reads of
// the user: on PostgreSQL every statement is a socket write and a wait, and
// those cost more server CPU than the work itself. SQLite keeps the
// transaction of rotate.ts (in-process, cheap; no data-modifying CTEs).

interface FirstUseRow {
  session_id: string
  user_id: string
  /** The user's row (row_to_json); null if the user is gone. */
  user: Selectable<UsersTable> | null
  /** The user's enabled MFA methods; null for none. */
  mfa_methods: UserWire['mfa_methods'] | null
  /** The user's linked-account rows, oldest first; null for none. */
  accounts: Selectable<LinkedAccountsTable>[] | null
  /** The recovery method of each of the user's wallet secrets in the user's app; null for none. */
  recovery_methods: Array<{ entropy_id: string; recovery_method: RecoveryMethod }> | null
}

/**
 * Claims the token if its session is the app's and live, touches that
 * session, inserts the successor, and reads the user as the answer needs it
 * (users/service.ts getUserWire: the same rows, in the same order). A row
 * only when all of it happened; none, and nothing written, otherwise.
 *
 * Concurrency (READ COMMITTED; every sub-statement sees the snapshot taken
 * when the statement started, and an UPDATE or a row lock that meets a row
 * changed since re-checks its WHERE on the newest version):
 *
 * - The token row is locked first (`token`, FOR UPDATE) and only while it is
 *   unrotated: a concurrent refresh that claimed it meanwhile makes the lock
 *   wait for its commit, then the re-check of `rotated_at IS NULL` drops the
 *   row, so nothing after it happens. Among concurrent refreshes of one token
 *   exactly one gets past this point; the others return no row and take the
 *   replay path (rotate.ts), which, being a new statement, sees the winner's
 *   committed successor. Token then session is also the transaction's order
 *   (claim, then touch), so the two paths cannot deadlock on each other.
 * - The session is touched only if it is this app's and live (the predicate
 *   of statements.ts touchLiveSession), re-checked on its newest version: a
 *   revocation that committed first makes the touch match nothing, hence no
 *   claim and no successor — the token is left unrotated and the replay path
 *   answers INVALID_REFRESH_TOKEN (as for a token refused for its session or
 *   app). A revocation that comes later waits on the touched row until this
 *   statement commits and then revokes the session with its new successor:
 *   never a live successor on a revoked session.
 * - The claim and the insert run only from the touched row, so the token is
 *   never marked rotated without its successor, nor touched for nothing.
 *
 * The user's rows are read from the statement's snapshot, as a read right
 * after the commit would find them (the rotation writes none of them).
 */
const rotateFirstUseStatement = precompile<{
  hash: string
  nextHash: string
  sealed: string
  appId: string
  now: number
  idleSince: number
}>()((db, param) => {
  const now = param('now')
  const query = sql<FirstUseRow>`
    with token as (
      select session_id from refresh_tokens
      where token_hash = ${param('hash')} and rotated_at is null
      for update
    ), touched as (
      update sessions set last_used_at = ${now}
      where id = (select session_id from token)
        and app_id = ${param('appId')}
        and revoked_at is null
        and expires_at > ${now}
        and last_used_at > ${param('idleSince')}
      returning id, user_id
    ), claimed as (
      update refresh_tokens
      set rotated_at = ${now}, replaced_by = ${param('nextHash')}, successor = ${param('sealed')}
      where token_hash = ${param('hash')} and rotated_at is null
        and session_id = (select id from touched)
      returning session_id
    ), successor as (
      insert into refresh_tokens (token_hash, session_id, created_at)
      select cast(${param('nextHash')} as text), session_id, cast(${now} as bigint) from claimed
      returning session_id
    )
    select
      t.id as session_id,
      t.user_id,
      (select row_to_json(u) from users u where u.id = t.user_id) as "user",
      (select json_agg(m.method) from mfa_factors m
        where m.user_id = t.user_id and m.enabled = 1) as mfa_methods,
      (select json_agg(a order by a.created_at, a.id) from linked_accounts a
        where a.user_id = t.user_id) as accounts,
      (select json_agg(json_build_object('entropy_id', w.entropy_id, 'recovery_method', w.recovery_method))
        from wallet_secrets w join users u on u.id = w.user_id and u.app_id = w.app_id
        where w.user_id = t.user_id) as recovery_methods
    from touched t join successor s on s.session_id = t.id`
  return { compile: () => query.compile(db) }
})

/**
 * The first use of a refresh token in one statement (above); null when the
 * token could not be claimed for this app (unknown, rotated already, or its
 * session another app's or not live), with nothing written. Throws
 * UNAUTHORIZED when the user is gone, as getUserWire does.
 */
export async function rotateFirstUseOnPostgres(
  db: Kysely<Database>,
  params: Parameters<typeof rotateFirstUseStatement.first>[1],
): Promise<{ sessionId: string; userId: string; user: UserWire } | null> {
  const row = await rotateFirstUseStatement.first(db, params)
  if (!row) return null
  if (!row.user) throw new ApiError('UNAUTHORIZED')
  const recovery = new Map(
    (row.recovery_methods ?? []).map((r) => [r.entropy_id, r.recovery_method] as const),
  )
  const user = userWireFromRows(row.user, row.mfa_methods ?? [], row.accounts ?? [], recovery)
  return { sessionId: row.session_id, userId: row.user_id, user }
}
