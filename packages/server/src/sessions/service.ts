import type { AuthResponse } from '@latchkey/protocol'
import { affected } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { newId, newSecret, sha256 } from '../ids.ts'
import { assertUserAllowlisted } from '../users/allowlist.ts'
import { getUserWire } from '../users/service.ts'
import { openSuccessor, sealSuccessor } from './successor.ts'
import { signAccessToken, signIdentityToken, verifyOwnAccessToken } from './tokens.ts'

/** Starts a session and its first refresh token. */
export async function createSession(
  services: Services,
  appId: string,
  userId: string,
): Promise<{ sessionId: string; refreshToken: string }> {
  const now = services.now()
  const sessionId = newId()
  const refreshToken = newSecret()
  await services.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('sessions')
      .values({
        id: sessionId,
        app_id: appId,
        user_id: userId,
        created_at: now,
        last_used_at: now,
        expires_at: now + services.config.sessions.absoluteLifetimeMs,
        revoked_at: null,
      })
      .execute()
    await tx
      .insertInto('refresh_tokens')
      .values({ token_hash: sha256(refreshToken), session_id: sessionId, created_at: now })
      .execute()
  })
  return { sessionId, refreshToken }
}

export async function revokeSession(services: Services, sessionId: string): Promise<void> {
  await services.db
    .updateTable('sessions')
    .set({ revoked_at: services.now() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute()
}

/** A refresh token's row, its session and its successor's row, if it was rotated. */
function findRefreshToken(services: Services, tokenHash: string) {
  return services.db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .leftJoin('refresh_tokens as next', 'next.token_hash', 'refresh_tokens.replaced_by')
    .select([
      'refresh_tokens.session_id',
      'refresh_tokens.rotated_at',
      'refresh_tokens.replaced_by',
      'refresh_tokens.successor',
      'next.token_hash as next_hash',
      'next.rotated_at as next_rotated_at',
      'sessions.app_id',
      'sessions.user_id',
      'sessions.last_used_at',
      'sessions.expires_at',
      'sessions.revoked_at',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst()
}

type RefreshTokenRow = NonNullable<Awaited<ReturnType<typeof findRefreshToken>>>

export interface RotatedRefreshToken {
  sessionId: string
  userId: string
  refreshToken: string
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
  let row = await findRefreshToken(services, hash)
  const now = services.now()
  if (!row || row.app_id !== appId || !isLive(services, row, now))
    throw new ApiError('INVALID_REFRESH_TOKEN')
  const { session_id: sessionId, user_id: userId } = row
  await assertStillAllowlisted(services, appId, sessionId, userId)
  if (row.rotated_at === null) {
    const next = newSecret()
    // The conditional UPDATE picks one winner among concurrent refreshes; the
    // successor row commits with it, so a loser that reads the seal finds a live token.
    const won = await services.db.transaction().execute(async (tx) => {
      const claimed = await tx
        .updateTable('refresh_tokens')
        .set({
          rotated_at: now,
          replaced_by: sha256(next),
          successor: sealSuccessor(services, refreshToken, hash, next),
        })
        .where('token_hash', '=', hash)
        .where('rotated_at', 'is', null)
        .executeTakeFirst()
      if (affected(claimed) !== 1) return false
      await tx
        .insertInto('refresh_tokens')
        .values({ token_hash: sha256(next), session_id: sessionId, created_at: now })
        .execute()
      await tx
        .updateTable('sessions')
        .set({ last_used_at: now })
        .where('id', '=', sessionId)
        .execute()
      return true
    })
    if (won) return { sessionId, userId, refreshToken: next }
    // Lost the race to a concurrent refresh of the same token: answer with its successor.
    row = await findRefreshToken(services, hash)
    if (!row || row.rotated_at === null || !isLive(services, row, now))
      throw new ApiError('INVALID_REFRESH_TOKEN')
  }
  return replayRotated(services, appId, refreshToken, hash, row, now)
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

/**
 * Checks a bearer access token and that its session is still live; returns
 * the caller and the session's enclave key binding (key routes check their
 * proof against it). The session row lookup (one primary-key read) is the
 * price of instant logout: a revoked session's access tokens stop working at
 * once, not at expiry.
 */
export async function authenticateRequest(
  services: Services,
  token: string | undefined,
  appId: string,
): Promise<AuthContext> {
  if (!token) throw new ApiError('UNAUTHORIZED')
  let claims: Awaited<ReturnType<typeof verifyOwnAccessToken>>
  try {
    claims = await verifyOwnAccessToken(services, token, appId)
  } catch {
    throw new ApiError('UNAUTHORIZED')
  }
  const session = await services.db
    .selectFrom('sessions')
    .select(['user_id', 'revoked_at', 'expires_at', 'enclave_jkt'])
    .where('id', '=', claims.sid)
    .executeTakeFirst()
  if (
    !session ||
    session.revoked_at !== null ||
    session.user_id !== claims.sub ||
    services.now() >= Number(session.expires_at)
  )
    throw new ApiError('UNAUTHORIZED')
  return {
    userId: claims.sub,
    sessionId: claims.sid,
    appId,
    enclaveKeyThumbprint: session.enclave_jkt,
  }
}

/** Access + identity tokens and the user, as every login and refresh answers. */
export async function buildAuthResponse(
  services: Services,
  input: {
    appId: string
    userId: string
    sessionId: string
    refreshToken: string
    isNewUser: boolean
  },
): Promise<AuthResponse> {
  const user = await getUserWire(services.db, input.userId)
  const [token, identityToken] = await Promise.all([
    signAccessToken(services, {
      userId: input.userId,
      appId: input.appId,
      sessionId: input.sessionId,
    }),
    signIdentityToken(services, {
      userId: input.userId,
      appId: input.appId,
      linkedAccounts: user.linked_accounts,
    }),
  ])
  return {
    user,
    is_new_user: input.isNewUser,
    token,
    refresh_token: input.refreshToken,
    identity_token: identityToken,
    session_update_action: 'set',
  }
}

/**
 * Logs a user in: new session, tokens. Every login method ends here, so the
 * app's allowlist is checked here for existing users too (any of their
 * linked accounts may match; docs/access-control.md).
 */
export async function startSession(
  services: Services,
  appId: string,
  userId: string,
  isNewUser: boolean,
): Promise<AuthResponse> {
  await assertUserAllowlisted(services, appId, userId)
  const { sessionId, refreshToken } = await createSession(services, appId, userId)
  return buildAuthResponse(services, { appId, userId, sessionId, refreshToken, isNewUser })
}
