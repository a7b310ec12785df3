import type { UserWire } from '@latchkey/protocol'
import { isPostgres } from '../db/dialect.ts'
import { CONNECTION_BUSY, sqliteHandleOf } from '../db/sqlite-sync.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { newSecret, sha256 } from '../ids.ts'
import { activeAllowlist, assertAllowlisted } from '../users/allowlist.ts'
import { assertUserAllowlisted } from '../users/allowlist-user.ts'
import { linkedAccountsOf } from '../users/service.ts'
import { rotateFirstUseOnPostgres } from './rotate-pg.ts'
import { rotateFirstUseOnSqlite } from './rotate-sqlite.ts'
import { revokeSession } from './service.ts'
import {
  claimRefreshToken,
  findRefreshToken,
  insertRefreshToken,
  touchLiveSession,
} from './statements.ts'
import { openSuccessor, sealSuccessor } from './successor.ts'

export interface RotatedRefreshToken {
  sessionId: string
  userId: string
  refreshToken: string
  /** The user, when the rotation read it already (rotate-pg.ts, rotate-sqlite.ts); else read after. */
  user?: UserWire
}

type RefreshTokenRow = NonNullable<Awaited<ReturnType<typeof findRefreshToken.first>>>

/** Thrown inside a rotation's transaction to undo the claim; names a session to end after. */
class Refused extends Error {
  constructor(readonly sessionToRevoke?: string) {
    super('refused')
  }
}

/**
 * Rotates a refresh token (security bar 31, 32): the first use returns a new
 * token, sealed in the old one's row (sessions/successor.ts). A replay of
 * the old token inside the overlap window (a second tab, a retried request,
 * a concurrent double refresh) gets that same successor back, never another
 * one, so a family never forks. A replay after the window, or once the
 * successor has itself been used, revokes the whole session (the family). A
 * session past its absolute or idle lifetime is refused.
 */
export async function rotateRefreshToken(
  services: Services,
  appId: string,
  refreshToken: string | undefined,
): Promise<RotatedRefreshToken> {
  if (!refreshToken) throw new ApiError('INVALID_REFRESH_TOKEN')
  const hash = sha256(refreshToken)
  const now = services.now()
  const rotated = await rotateFirstUse(services, appId, refreshToken, hash, now)
  if (rotated) return rotated
  // Unknown, or rotated already (by an earlier request or a concurrent one): a replay?
  const row = await findRefreshToken.first(services.db, { hash })
  if (!row || row.rotated_at === null || row.app_id !== appId || !isLive(services, row, now))
    throw new ApiError('INVALID_REFRESH_TOKEN')
  await assertStillAllowlisted(services, appId, row.session_id, row.user_id)
  return replayRotated(services, appId, refreshToken, hash, row, now)
}

/**
 * The first use of a token, the common case, in one transaction of three
 * statements: claim the token, touch its session if it is the app's and live
 * (which names the user), insert the successor. Null when the token cannot
 * be claimed (unknown, or rotated already). The conditional claim picks one
 * winner among concurrent refreshes; the successor row commits with it, so a
 * loser that reads the seal finds a live token. For an app without an
 * active allowlist, the same and the user's reads: on PostgreSQL in one
 * statement (rotate-pg.ts, one round trip instead of seven, eight with
 * wallets), on SQLite synchronously, with group commit (rotate-sqlite.ts).
 */
async function rotateFirstUse(
  services: Services,
  appId: string,
  refreshToken: string,
  hash: string,
  now: number,
): Promise<RotatedRefreshToken | null> {
  const next = newSecret()
  const nextHash = sha256(next)
  const sealed = sealSuccessor(services, refreshToken, hash, next)
  const idleSince = now - services.config.sessions.idleLifetimeMs
  // Read before the transaction: a cache miss reads the database, and SQLite's
  // one connection belongs to the transaction until it ends.
  const app = await services.apps.get(appId)
  const allowlist = app && activeAllowlist(app.settings) !== null ? app.settings : null
  // No allowlist to check between claim and insert: PostgreSQL in one
  // statement, one round trip; SQLite in one synchronous transaction.
  if (!allowlist) {
    const params = { hash, nextHash, sealed, appId, now, idleSince }
    const handle = sqliteHandleOf(services.db)
    const rotated = handle
      ? await rotateFirstUseOnSqlite(services.db, handle, params)
      : isPostgres(services.db)
        ? await rotateFirstUseOnPostgres(services.db, params)
        : CONNECTION_BUSY
    if (rotated !== CONNECTION_BUSY) return rotated && { ...rotated, refreshToken: next }
  }
  try {
    return await services.db.transaction().execute(async (tx) => {
      const token = await claimRefreshToken.first(tx, { hash, now, nextHash, sealed })
      if (!token) return null
      const sessionId = token.session_id
      const session = await touchLiveSession.first(tx, { id: sessionId, appId, now, idleSince })
      // Another app's, revoked or expired: refused, and the claim undone.
      if (!session) throw new Refused()
      const userId = session.user_id
      if (allowlist) {
        try {
          assertAllowlisted(allowlist, await linkedAccountsOf(tx, userId))
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'ALLOWLIST_REJECTED') throw error
          throw new Refused(sessionId)
        }
      }
      await insertRefreshToken.execute(tx, { hash: nextHash, sessionId, now })
      return { sessionId, userId, refreshToken: next }
    })
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    // Taken off the allowlist (see assertStillAllowlisted): logged out.
    if (error.sessionToRevoke) await revokeSession(services, error.sessionToRevoke)
    throw new ApiError('INVALID_REFRESH_TOKEN')
  }
}

/**
 * A refresh re-checks the app's allowlist (tracker issue 15, item 9): a user
 * taken off the list is logged out at their next refresh, at most one access
 * token lifetime after the change. The refusal is the one core's session store
 * treats as "session ended" (401 INVALID_REFRESH_TOKEN), and the session is revoked.
 */
async function assertStillAllowlisted(
  services: Services,
  appId: string,
  sessionId: string,
  userId: string,
): Promise<void> {
  try {
    await assertUserAllowlisted(services, appId, userId)
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'ALLOWLIST_REJECTED') throw error
    await revokeSession(services, sessionId)
    throw new ApiError('INVALID_REFRESH_TOKEN')
  }
}

function isLive(services: Services, row: RefreshTokenRow, now: number): boolean {
  return (
    row.revoked_at === null &&
    now < Number(row.expires_at) &&
    now < Number(row.last_used_at) + services.config.sessions.idleLifetimeMs
  )
}

/** A rotated token came back: the same successor inside the window, else the family ends. */
async function replayRotated(
  services: Services,
  appId: string,
  refreshToken: string,
  hash: string,
  row: RefreshTokenRow,
  now: number,
): Promise<RotatedRefreshToken> {
  const outsideWindow = now - Number(row.rotated_at) > services.config.sessions.refreshOverlapMs
  const successorUsed = row.next_rotated_at !== null && row.next_rotated_at !== undefined
  if (outsideWindow || successorUsed) {
    // It leaked or was replayed: end the family.
    await revokeSession(services, row.session_id)
    services.logger.warn(`refresh token reuse detected; session revoked (app ${appId})`)
    throw new ApiError('INVALID_REFRESH_TOKEN')
  }
  const successor =
    row.successor && row.next_hash
      ? openSuccessor(services, refreshToken, hash, row.successor)
      : null
  // No seal (a token rotated before migration 008) or one that does not open: refuse, revoke nothing.
  if (successor === null || sha256(successor) !== row.replaced_by)
    throw new ApiError('INVALID_REFRESH_TOKEN')
  return { sessionId: row.session_id, userId: row.user_id, refreshToken: successor }
}
