import { type AuthResponse, Header } from '@latchkey/protocol'
import type { Context } from 'hono'
import { affected } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import { sessionIdOfOwnNewAccessToken } from './tokens.ts'

/*
 * Binding a session to the enclave's device key (docs/security.md "Key routes
 * answer only to the enclave"). The SDK sends the key's RFC 7638 thumbprint on
 * a login request; the session that login creates is bound to it, once. No
 * route binds or rebinds an existing session: a stolen access or refresh
 * token cannot be moved to another key.
 */

/** An RFC 7638 SHA-256 thumbprint: 32 bytes, base64url without padding. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/

/**
 * The `latchkey-enclave-key` header of a login request: the thumbprint, or
 * undefined when the header is absent. A malformed value (or several values)
 * is 400 INVALID_PAYLOAD, before any session is made.
 *
 * @example
 * const jkt = readEnclaveKeyHeader(c) // 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'
 */
export function readEnclaveKeyHeader(c: Context<HonoEnv>): string | undefined {
  const value = c.req.header(Header.enclaveKey)
  if (value === undefined) return undefined
  if (!THUMBPRINT.test(value))
    throw new ApiError('INVALID_PAYLOAD', `The ${Header.enclaveKey} header is not a key thumbprint`)
  return value
}

/**
 * Binds a session that has no enclave key yet to `jkt`. Called only for the
 * session a login just created, before its tokens are sent; a session that
 * is already bound is never changed (the update matches no row, and this throws).
 *
 * @example
 * await bindEnclaveKey(services, sessionId, jkt)
 */
export async function bindEnclaveKey(
  services: Services,
  sessionId: string,
  jkt: string,
): Promise<void> {
  const result = await services.db
    .updateTable('sessions')
    .set({ enclave_jkt: jkt })
    .where('id', '=', sessionId)
    .where('enclave_jkt', 'is', null)
    .executeTakeFirst()
  if (affected(result) !== 1)
    throw new Error('The new session could not be bound to its enclave key')
}

/**
 * Binds the session a login route just created (its answer's access token,
 * signed moments ago by this server) to the enclave key of the login request.
 * An answer without a token made no session: nothing to bind.
 *
 * @example
 * const result = await def.handler(input)
 * if (jkt) await bindEnclaveKeyToLogin(services, result, jkt)
 */
export async function bindEnclaveKeyToLogin(
  services: Services,
  response: Pick<AuthResponse, 'token'>,
  jkt: string,
): Promise<void> {
  if (!response.token) return
  await bindEnclaveKey(services, sessionIdOfOwnNewAccessToken(response.token), jkt)
}
