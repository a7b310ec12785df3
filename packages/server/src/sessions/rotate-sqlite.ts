import type { UserWire } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { type CONNECTION_BUSY, runSqliteTransaction, type SqliteHandle } from '../db/sqlite-sync.ts'
import type { Database } from '../db/types.ts'
import { getUserWireSync } from '../users/service.ts'
import { claimRefreshToken, insertRefreshToken, touchLiveSession } from './statements.ts'

// The first use of a refresh token on SQLite, as one synchronous transaction
// on the connection (db/sqlite-sync.ts): the statements of rotate.ts's
// transaction, then the user's reads, with no await between them. Through
// Kysely the same work is a transaction that awaits each statement, and the
// promises cost more than SQLite does. PostgreSQL has its own one-statement
// path (rotate-pg.ts).

/** Undoes the claim: the session is not this app's or not live. */
class NotLive extends Error {}

/**
 * Claims the token, touches its session if it is the app's and live,
 * inserts the successor and reads the user, in one transaction; null when
 * the token could not be claimed for this app (unknown, rotated already, or
 * its session another app's or not live), with nothing written.
 * {@link CONNECTION_BUSY} when a Kysely transaction holds the connection:
 * the caller then takes rotate.ts's asynchronous path. Throws UNAUTHORIZED,
 * and writes nothing, when the user is gone.
 */
export function rotateFirstUseOnSqlite(
  db: Kysely<Database>,
  handle: SqliteHandle,
  params: {
    hash: string
    nextHash: string
    sealed: string
    appId: string
    now: number
    idleSince: number
  },
): { sessionId: string; userId: string; user: UserWire } | null | typeof CONNECTION_BUSY {
  const { hash, nextHash, sealed, appId, now, idleSince } = params
  try {
    return runSqliteTransaction(handle, () => {
      const token = claimRefreshToken.firstSync(db, handle, { hash, now, nextHash, sealed })
      if (!token) return null
      const sessionId = token.session_id
      const session = touchLiveSession.firstSync(db, handle, {
        id: sessionId,
        appId,
        now,
        idleSince,
      })
      if (!session) throw new NotLive()
      insertRefreshToken.rowsSync(db, handle, { hash: nextHash, sessionId, now })
      const user = getUserWireSync(db, handle, session.user_id)
      return { sessionId, userId: session.user_id, user }
    })
  } catch (error) {
    if (error instanceof NotLive) return null
    throw error
  }
}
