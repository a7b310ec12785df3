import type { AuthResponse, UserWire } from '@latchkey/protocol'
import type { Kysely, Transaction } from 'kysely'
import type { SqliteHandle } from '../db/sqlite-sync.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { newId, newSecret, sha256 } from '../ids.ts'
import { assertUserAllowlisted } from '../users/allowlist-user.ts'
import { type AccountInput, createUser, getUserWire } from '../users/service.ts'
import { insertRefreshToken, insertSession, sessionOfAccessToken } from './statements.ts'
import { signAccessToken, signIdentityToken, verifyOwnAccessToken } from './tokens.ts'

/** Starts a session and its first refresh token. */
export async function createSession(
  services: Services,
  appId: string,
  userId: string,
): Promise<{ sessionId: string; refreshToken: string }> {
  const session = newSession(services, appId)
  await services.db.transaction().execute((tx) => session.write(tx, userId))
  return session
}

/** A session's id and first refresh token, and how to write them (in a transaction). */
function newSession(services: Services, appId: string) {
  const now = services.now()
  const sessionId = newId()
  const refreshToken = newSecret()
  const expiresAt = now + services.config.sessions.absoluteLifetimeMs
  const refreshTokenHash = sha256(refreshToken)
  return {
    sessionId,
    refreshToken,
    row: { id: sessionId, refreshTokenHash, expiresAt },
    async write(tx: Transaction<Database>, userId: string): Promise<void> {
      await insertSession.execute(tx, { id: sessionId, appId, userId, now, expiresAt })
      await insertRefreshToken.execute(tx, { hash: refreshTokenHash, sessionId, now })
    },
    writeSync(db: Kysely<Database>, handle: SqliteHandle, userId: string): void {
      insertSession.rowsSync(db, handle, { id: sessionId, appId, userId, now, expiresAt })
      insertRefreshToken.rowsSync(db, handle, { hash: refreshTokenHash, sessionId, now })
    },
  }
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
  const session = await sessionOfAccessToken.first(services.db, { id: claims.sid })
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
    /** The user, when the caller has just written every row of it (a sign-up); else read. */
    user?: UserWire
  },
): Promise<AuthResponse> {
  const user = input.user ?? (await getUserWire(services.db, input.userId))
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

/**
 * Signs a new user up with their first account and logs them in: the
 * user, the account and the session commit together (users/service.ts
 * createUser), and the answer is made from the rows written, not read back.
 * The sign-up gates (allowlist, user limit) run in that transaction; the
 * allowlist check of {@link startSession} would see the same one account.
 * A unique violation (the account was taken meanwhile) propagates.
 */
export async function startSessionForNewUser(
  services: Services,
  appId: string,
  account: AccountInput,
  now: number,
): Promise<AuthResponse> {
  const session = newSession(services, appId)
  const { userId, user } = await createUser(services.db, appId, account, now, session)
  const { sessionId, refreshToken } = session
  return buildAuthResponse(services, {
    appId,
    userId,
    sessionId,
    refreshToken,
    isNewUser: true,
    user,
  })
}
