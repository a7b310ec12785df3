import type { KeyActivityResponse, KeyReleaseKind, KeyReleaseWire } from '@latchkey/protocol'
import type { Context } from 'hono'
import type { Kysely, Selectable, Transaction } from 'kysely'
import { decodeCursor, newestFirstPage } from '../db/newest-first.ts'
import type { Database, KeyReleasesTable } from '../db/types.ts'
import { clientIp } from '../http/client-ip.ts'
import type { AuthContext, HonoEnv, Services } from '../http/context.ts'
import { newId } from '../ids.ts'

/*
 * The audit of key releases (tracker issue 15 item 8, docs/wallets.md "Key
 * activity"): every time the auth share or the recovery material leaves the
 * server, a row says to whom (user, session), for which secret, when, and from
 * where (IP, user agent). The row is written before the material is returned:
 * if the write fails, the request fails and nothing is released.
 */

/** How long a key release is kept before the purge deletes it. */
export const KEY_RELEASE_RETENTION_MS = 90 * 24 * 60 * 60_000

/** Longest user agent kept; the rest is cut. */
export const KEY_RELEASE_USER_AGENT_MAX = 256

/** Where a release went, beyond the session: read from the request. */
export interface KeyReleaseOrigin {
  ip: string | null
  userAgent: string | null
  /** The thumbprint of the enclave key whose proof the release answered (the session's). */
  enclaveKeyThumbprint: string | null
}

/**
 * The caller's IP (http/client-ip.ts: the socket, or the proxy's last
 * X-Forwarded-For entry with `trustProxy`), user agent, cut to 256 characters,
 * and the session's enclave key (a key route has checked its proof).
 */
export function keyReleaseOrigin(
  c: Context<HonoEnv>,
  services: Services,
  auth: AuthContext,
): KeyReleaseOrigin {
  const userAgent = c.req.header('user-agent')
  return {
    ip: clientIp(c, services) ?? null,
    userAgent: userAgent ? userAgent.slice(0, KEY_RELEASE_USER_AGENT_MAX) : null,
    enclaveKeyThumbprint: auth.enclaveKeyThumbprint,
  }
}

export interface RecordKeyReleaseParameters {
  auth: AuthContext
  /** Canonical entropy id of the released secret. */
  entropyId: string
  kind: KeyReleaseKind
  origin: KeyReleaseOrigin
}

/**
 * Records one release. Call it after every check has passed and before the
 * material is returned; let its error propagate (no material without a record).
 *
 * @example
 * await recordKeyRelease(services, { auth, entropyId, kind: 'auth_share', origin })
 * return { entropy_id, auth_share }
 */
export async function recordKeyRelease(
  services: Pick<Services, 'db' | 'now' | 'metrics'>,
  parameters: RecordKeyReleaseParameters,
): Promise<void> {
  const { auth, entropyId, kind, origin } = parameters
  await services.db
    .insertInto('key_releases')
    .values({
      id: newId(),
      app_id: auth.appId,
      user_id: auth.userId,
      entropy_id: entropyId,
      kind,
      session_id: auth.sessionId,
      enclave_key_thumbprint: origin.enclaveKeyThumbprint,
      ip: origin.ip,
      user_agent: origin.userAgent,
      created_at: services.now(),
    })
    .execute()
  services.metrics.walletOperation(
    kind === 'auth_share' ? 'auth_share_release' : 'recovery_release',
  )
}

export interface ListKeyReleasesParameters {
  userId: string
  /** Only this app's rows (the caller's session app); every app when omitted (the CLI). */
  appId?: string
  limit: number
  cursor?: string
}

/** A cursor names the last row of a page: `created_at` and id, base64url. */
export const toKeyReleaseWire = (row: Selectable<KeyReleasesTable>): KeyReleaseWire => ({
  id: row.id,
  kind: row.kind,
  entropy_id: row.entropy_id,
  created_at: Math.floor(Number(row.created_at) / 1000),
  session_id: row.session_id,
  enclave_key_thumbprint: row.enclave_key_thumbprint,
  ip: row.ip,
  user_agent: row.user_agent,
})

/**
 * One page of a user's key releases, newest first (ties by id, descending),
 * and the cursor of the next page (null on the last one). An unreadable
 * cursor starts from the newest row rather than failing.
 *
 * @example
 * const first = await listKeyReleases(db, { userId, appId, limit: 20 })
 * const second = await listKeyReleases(db, { userId, appId, limit: 20, cursor: first.next_cursor })
 */
export async function listKeyReleases(
  db: Kysely<Database> | Transaction<Database>,
  parameters: ListKeyReleasesParameters,
): Promise<KeyActivityResponse> {
  const { userId, appId, limit } = parameters
  const after = parameters.cursor ? decodeCursor(parameters.cursor) : null
  let query = db.selectFrom('key_releases').selectAll().where('user_id', '=', userId)
  if (appId !== undefined) query = query.where('app_id', '=', appId)
  if (after)
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    )
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
  return newestFirstPage(rows, limit, toKeyReleaseWire)
}
