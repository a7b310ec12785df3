import type { AuthResponse } from '@latchkey/protocol'
import { affected } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { newId, newSecret, sha256 } from '../ids.ts'
import { assertUserAllowlisted } from '../users/allowlist.ts'
import { getUserWire } from '../users/service.ts'
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

/**
 * Rotates a refresh token (security bar 31, 32): every use returns a new
 * token; reuse of a rotated token outside the overlap window revokes the
 * whole session (the family); a session past its absolute or idle lifetime
 * is refused.
 */
export async function rotateRefreshToken(
  services: Services,
  appId: string,
  refreshToken: string | undefined,
): Promise<{ sessionId: string; userId: string; refreshToken: string }> {
  if (!refreshToken) throw new ApiError('INVALID_REFRESH_TOKEN')
  const { db, now: clock } = services
  const { idleLifetimeMs, refreshOverlapMs } = services.config.sessions
  const hash = sha256(refreshToken)
  const row = await db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select([
      'refresh_tokens.session_id',
      'refresh_tokens.rotated_at',
      'sessions.app_id',
      'sessions.user_id',
      'sessions.last_used_at',
      'sessions.expires_at',
      'sessions.revoked_at',
    ])
    .where('refresh_tokens.token_hash', '=', hash)
    .executeTakeFirst()
  if (!row || row.app_id !== appId) throw new ApiError('INVALID_REFRESH_TOKEN')
  const now = clock()
  if (
    row.revoked_at !== null ||
    now >= Number(row.expires_at) ||
    now >= Number(row.last_used_at) + idleLifetimeMs
  )
    throw new ApiError('INVALID_REFRESH_TOKEN')

  const next = newSecret()
  const nextHash = sha256(next)
  let rotatedAt = row.rotated_at === null ? null : Number(row.rotated_at)
  if (rotatedAt === null) {
    const result = await db
      .updateTable('refresh_tokens')
      .set({ rotated_at: now, replaced_by: nextHash })
      .where('token_hash', '=', hash)
      .where('rotated_at', 'is', null)
      .executeTakeFirst()
    // Lost a race with a concurrent refresh of the same token: treat as rotated just now.
    if (affected(result) !== 1) rotatedAt = now
  }
  if (rotatedAt !== null && now - rotatedAt > refreshOverlapMs) {
    // A rotated token came back: it leaked or was replayed. End the family.
    await revokeSession(services, row.session_id)
    services.logger.warn(`refresh token reuse detected; session revoked (app ${appId})`)
    throw new ApiError('INVALID_REFRESH_TOKEN')
  }
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('refresh_tokens')
      .values({ token_hash: nextHash, session_id: row.session_id, created_at: now })
      .execute()
    await tx
      .updateTable('sessions')
      .set({ last_used_at: now })
      .where('id', '=', row.session_id)
      .execute()
  })
  return { sessionId: row.session_id, userId: row.user_id, refreshToken: next }
}

/**
 * Checks a bearer access token and that its session is still live. The
 * session row lookup (one primary-key read) is the price of instant logout:
 * a revoked session's access tokens stop working at once, not at expiry.
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
    .select(['user_id', 'revoked_at', 'expires_at'])
    .where('id', '=', claims.sid)
    .executeTakeFirst()
  if (
    !session ||
    session.revoked_at !== null ||
    session.user_id !== claims.sub ||
    services.now() >= Number(session.expires_at)
  )
    throw new ApiError('UNAUTHORIZED')
  return { userId: claims.sub, sessionId: claims.sid, appId }
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
