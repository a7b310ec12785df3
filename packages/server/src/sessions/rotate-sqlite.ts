import type { UserWire } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import { type CONNECTION_BUSY, inGroupCommit, type SqliteHandle } from '../db/sqlite-sync.ts'
import type { Database } from '../db/types.ts'
import { getUserWireSync } from '../users/service.ts'
import { claimRefreshToken, insertRefreshToken, touchLiveSession } from './statements.ts'

// The first use of a refresh token on SQLite, synchronously on the
// connection (db/sqlite-sync.ts): the statements of rotate.ts's transaction,
// then the user's reads, with no await between them. Through Kysely the same
// work is a transaction that awaits each statement, and the promises cost
// more than SQLite does. PostgreSQL has its own one-statement path
// (rotate-pg.ts).
//
// The rotations of one turn of the event loop share a commit
// (db/sqlite-sync.ts inGroupCommit).

export interface SqliteRotation {
  hash: string
  nextHash: string
  sealed: string
  appId: string
  now: number
  idleSince: number
}

export type SqliteRotated = { sessionId: string; userId: string; user: UserWire } | null

/** Undoes the claim: the session is not this app's or not live. */
class NotLive extends Error {}

/**
 * Claims the token, touches its session if it is the app's and live,
 * inserts the successor and reads the user; resolves after the commit. Null
 * when the token could not be claimed for this app (unknown, rotated
 * already, or its session another app's or not live), with nothing written.
 * {@link CONNECTION_BUSY} when a Kysely transaction held the connection: the
 * caller then takes rotate.ts's asynchronous path. Rejects with UNAUTHORIZED,
 * and writes nothing, when the user is gone.
 */
export async function rotateFirstUseOnSqlite(
  db: Kysely<Database>,
  handle: SqliteHandle,
  rotation: SqliteRotation,
): Promise<SqliteRotated | typeof CONNECTION_BUSY> {
  try {
    return await inGroupCommit(handle, () => rotate(db, handle, rotation))
  } catch (error) {
    if (error instanceof NotLive) return null
    throw error
  }
}

function rotate(
  db: Kysely<Database>,
  handle: SqliteHandle,
  rotation: SqliteRotation,
): SqliteRotated {
  const { hash, nextHash, sealed, appId, now, idleSince } = rotation
  const token = claimRefreshToken.firstSync(db, handle, { hash, now, nextHash, sealed })
  if (!token) return null
  const sessionId = token.session_id
  const session = touchLiveSession.firstSync(db, handle, { id: sessionId, appId, now, idleSince })
  if (!session) throw new NotLive()
  insertRefreshToken.rowsSync(db, handle, { hash: nextHash, sessionId, now })
  const user = getUserWireSync(db, handle, session.user_id)
  return { sessionId, userId: session.user_id, user }
}
