import { precompile } from '../db/precompiled.ts'

// The statements of a login's session and of every refresh, compiled once
// (db/precompiled.ts): a refresh is the server's most frequent write.

/** A new session (a login). */
export const insertSession = precompile<{
  id: string
  appId: string
  userId: string
  now: number
  expiresAt: number
}>()((db, param) =>
  db.insertInto('sessions').values({
    id: param('id'),
    app_id: param('appId'),
    user_id: param('userId'),
    created_at: param('now'),
    last_used_at: param('now'),
    expires_at: param('expiresAt'),
    revoked_at: null,
  }),
)

/** A refresh token of a session: the first one, or a rotation's successor. */
export const insertRefreshToken = precompile<{ hash: string; sessionId: string; now: number }>()(
  (db, param) =>
    db.insertInto('refresh_tokens').values({
      token_hash: param('hash'),
      session_id: param('sessionId'),
      created_at: param('now'),
    }),
)

/**
 * Marks a refresh token rotated, with its sealed successor (successor.ts),
 * unless it already was: among concurrent refreshes of one token, one claims
 * it. Returns its session; nothing for a token unknown or already rotated.
 */
export const claimRefreshToken = precompile<{
  hash: string
  now: number
  nextHash: string
  sealed: string
}>()((db, param) =>
  db
    .updateTable('refresh_tokens')
    .set({ rotated_at: param('now'), replaced_by: param('nextHash'), successor: param('sealed') })
    .where('token_hash', '=', param('hash'))
    .where('rotated_at', 'is', null)
    .returning('session_id'),
)

/**
 * Records the session's use, if it is the app's and still live (neither
 * revoked, nor past its absolute or idle lifetime: `idleSince` is now minus
 * the idle lifetime); returns its user. The liveness test is the one
 * rotate.ts `isLive` applies to a row already read.
 */
export const touchLiveSession = precompile<{
  id: string
  appId: string
  now: number
  idleSince: number
}>()((db, param) =>
  db
    .updateTable('sessions')
    .set({ last_used_at: param('now') })
    .where('id', '=', param('id'))
    .where('app_id', '=', param('appId'))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', param('now'))
    .where('last_used_at', '>', param('idleSince'))
    .returning('user_id'),
)

/** A refresh token's row, its session and its successor's row, if it was rotated. */
export const findRefreshToken = precompile<{ hash: string }>()((db, param) =>
  db
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
    .where('refresh_tokens.token_hash', '=', param('hash')),
)

/** What a bearer access token's session says of it (service.ts authenticateRequest). */
export const sessionOfAccessToken = precompile<{ id: string }>()((db, param) =>
  db
    .selectFrom('sessions')
    .select(['user_id', 'revoked_at', 'expires_at', 'enclave_jkt'])
    .where('id', '=', param('id')),
)
