import { Header } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import {
  type AddEmbeddedWalletRequest,
  authShareResponseSchema,
  type CloudOAuthResult,
  type CreateEmbeddedWalletsRequest,
  type RecoveryMaterial,
  type RecoveryOAuthAuthenticateResponse,
  recoveryMaterialResponseSchema,
  recoveryOAuthAuthenticateResponseSchema,
  type SetRecoveryRequest,
  type UserWire,
  userSchema,
  usersMeResponseSchema,
} from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import { PageError, serverError } from './errors.ts'

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/** The server's share-storage API, as the enclave calls it (same origin, bearer token, app id). */
export interface ServerApi {
  create(token: string, body: CreateEmbeddedWalletsRequest): Promise<UserWire>
  add(token: string, body: AddEmbeddedWalletRequest): Promise<UserWire>
  authShare(token: string, entropyId: string): Promise<string>
  recovery(token: string, entropyId: string): Promise<RecoveryMaterial>
  setRecovery(token: string, body: SetRecoveryRequest): Promise<UserWire>
  me(token: string): Promise<UserWire>
  /**
   * Exchanges a cloud consent's result for the provider access (Google access
   * token, or iCloud web auth token + container): it stays in the enclave.
   */
  cloudAuthenticate(
    token: string,
    body: CloudOAuthResult,
  ): Promise<RecoveryOAuthAuthenticateResponse>
}

/**
 * Calls the Latchkey server this page is served from: `fetch(path)` relative
 * to the page's own origin (CSP `connect-src 'self'`), with
 * `authorization: Bearer <the request's access token>` and the app id header.
 * Answers are schema-checked; errors become {@link PageError}s with the
 * server's code.
 */
export function createServerApi(options: {
  appId: string
  fetch?: FetchLike
  /** Prefix for paths (default '': same origin). */
  baseUrl?: string
}): ServerApi {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const base = options.baseUrl ?? ''

  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    body: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      [Header.appId]: options.appId,
      accept: 'application/json',
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let res: Response
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
        redirect: 'error',
        referrerPolicy: 'no-referrer',
      })
    } catch {
      throw new PageError('NETWORK_ERROR')
    }
    let json: unknown = null
    try {
      json = await res.json()
    } catch {}
    if (!res.ok) throw serverError(res.status, json)
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new PageError('INTERNAL_ERROR', 'Unexpected answer from the server')
    return parsed.data
  }

  return {
    create: (token, body) => call('POST', routes.embeddedWalletsCreate, token, body, userSchema),
    add: (token, body) => call('POST', routes.embeddedWalletsAdd, token, body, userSchema),
    async authShare(token, entropyId) {
      const answer = await call(
        'POST',
        routes.embeddedWalletsAuthShare,
        token,
        { entropy_id: entropyId },
        authShareResponseSchema,
      )
      return answer.auth_share
    },
    async recovery(token, entropyId) {
      const answer = await call(
        'POST',
        routes.embeddedWalletsRecovery,
        token,
        { entropy_id: entropyId },
        recoveryMaterialResponseSchema,
      )
      return answer.recovery
    },
    setRecovery: (token, body) =>
      call('POST', routes.embeddedWalletsSetRecovery, token, body, userSchema),
    async me(token) {
      const answer = await call('GET', routes.usersMe, token, undefined, usersMeResponseSchema)
      return answer.user
    },
    cloudAuthenticate: (token, body) =>
      call(
        'POST',
        routes.recoveryOAuthAuthenticate,
        token,
        body,
        recoveryOAuthAuthenticateResponseSchema,
      ),
  }
}
