import type {
  AccessTokenClaims,
  AppWallet,
  ErrorCode,
  ListUsersQuery,
  ListUsersResponse,
  LookupAccountType,
  LookupUserRequest,
  UserWire,
} from '@latchkey/protocol'
import { Header } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import { verifyAccessToken } from '../verify.ts'
import { LatchkeyApiError } from './errors.ts'
import { type DelegatedWallets, delegatedWallets } from './wallets.ts'

export interface LatchkeyServerClientOptions {
  /** Where your backend reaches the Latchkey server, e.g. `https://auth.example.com`. */
  url: string
  /** Your app's id (25 characters). */
  appId: string
  /** One of the app's secrets (`latchkey apps secret create`); keep it on servers only. */
  appSecret: string
  /**
   * The issuer of the app's access tokens: the server's public URL (default
   * `url`; set it when your backend reaches the server by another address).
   */
  issuer?: string
  /** Per-call timeout in ms (default 20 000). */
  timeoutMs?: number
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch
}

export interface VerifyTokenOptions {
  /** Allowed clock skew, seconds (default 0). */
  clockToleranceS?: number
  /** The time to check `exp` against (default now). */
  currentDate?: Date
}

/** The calls an app backend makes to its Latchkey server (docs/server-api.md). */
export interface LatchkeyServerClient {
  /** The user, or null when the app has no user with that id. */
  getUser(userId: string): Promise<UserWire | null>
  /** One page of the app's users, oldest first (at most 100; pass `next_cursor` back as `cursor`). */
  listUsers(query?: ListUsersQuery): Promise<ListUsersResponse>
  /** Every user of the app, page after page. */
  allUsers(options?: { pageSize?: number }): AsyncGenerator<UserWire>
  getUserByEmail(email: string): Promise<UserWire | null>
  /** An E.164 number, or one with its country code (`+1 415 555 0132`). */
  getUserByPhoneNumber(phoneNumber: string): Promise<UserWire | null>
  /** The owner of an embedded or external wallet (Ethereum in any case, Solana base58). */
  getUserByWalletAddress(address: string): Promise<UserWire | null>
  /** The owner of a linked account: `{ type: 'custom', identifier: 'your-user-id' }`, a Farcaster fid… */
  getUserByAccount(account: {
    type: LookupAccountType
    identifier: string
  }): Promise<UserWire | null>
  /** The user's embedded wallets: addresses, chains and ids, never key material. */
  getUserWallets(userId: string): Promise<AppWallet[]>
  /** Deletes the user, their wallets and sessions; throws USER_DOES_NOT_EXIST for an unknown id. */
  deleteUser(userId: string): Promise<void>
  /**
   * Verifies an access token your frontend sent (ES256, `typ` at+jwt, this
   * app as audience, the server as issuer, not expired), with the server's
   * keys fetched once and cached; returns its claims (`sub` is the user id).
   */
  verifyAccessToken(token: string, options?: VerifyTokenOptions): Promise<AccessTokenClaims>
  /** Signing with wallets users delegated to the app (docs/delegated-actions.md). */
  wallets: DelegatedWallets
}

const DEFAULT_TIMEOUT_MS = 20_000

/**
 * A client for an app backend: typed calls of the app-secret API (users,
 * wallets) and access-token verification against the server's own keys.
 * Server-side only: the server refuses app credentials sent by a browser.
 *
 * @example
 * import { createLatchkeyServerClient } from '@latchkey/server/sdk'
 * const latchkey = createLatchkeyServerClient({
 *   url: 'https://auth.example.com',
 *   appId: process.env.LATCHKEY_APP_ID,
 *   appSecret: process.env.LATCHKEY_APP_SECRET,
 * })
 * const { sub } = await latchkey.verifyAccessToken(bearerToken)
 * const user = await latchkey.getUser(sub)
 */
export function createLatchkeyServerClient(
  options: LatchkeyServerClientOptions,
): LatchkeyServerClient {
  const base = options.url.replace(/\/+$/, '')
  const issuer = (options.issuer ?? base).replace(/\/+$/, '')
  const authorization = `Basic ${Buffer.from(`${options.appId}:${options.appSecret}`).toString('base64')}`
  const fetchImpl = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const id = (userId: string) => encodeURIComponent(userId)

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      authorization,
      [Header.appId]: options.appId,
      accept: 'application/json',
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (cause) {
      const timedOut = (cause as Error)?.name === 'TimeoutError'
      throw new LatchkeyApiError(
        timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
        timedOut
          ? `The Latchkey server did not answer within ${timeoutMs} ms`
          : `The Latchkey server could not be reached: ${(cause as Error)?.message ?? cause}`,
        { status: 0, cause },
      )
    }
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    if (response.ok) return parsed as T
    const error = (parsed ?? {}) as {
      code?: ErrorCode
      message?: string
      details?: unknown
      retry_after?: number
    }
    throw new LatchkeyApiError(
      error.code ?? 'INTERNAL_ERROR',
      error.message ?? `The Latchkey server answered ${response.status}`,
      {
        status: response.status,
        details: error.details,
        ...(error.retry_after !== undefined ? { retryAfter: error.retry_after } : {}),
      },
    )
  }

  /** The user, or null for the server's USER_DOES_NOT_EXIST. */
  const orNull = async (pending: Promise<UserWire>): Promise<UserWire | null> => {
    try {
      return await pending
    } catch (error) {
      if (error instanceof LatchkeyApiError && error.code === 'USER_DOES_NOT_EXIST') return null
      throw error
    }
  }
  const lookup = (body: LookupUserRequest) =>
    orNull(call<UserWire>('POST', routes.appUserLookup, body))

  const client: LatchkeyServerClient = {
    getUser: (userId) => orNull(call('GET', routes.appUser(id(userId)))),
    listUsers(query = {}) {
      const params = new URLSearchParams()
      if (query.cursor !== undefined) params.set('cursor', query.cursor)
      if (query.limit !== undefined) params.set('limit', String(query.limit))
      const search = params.size > 0 ? `?${params}` : ''
      return call('GET', `${routes.appUsers}${search}`)
    },
    async *allUsers({ pageSize } = {}) {
      let cursor: string | undefined
      do {
        const page = await client.listUsers({
          ...(cursor !== undefined ? { cursor } : {}),
          ...(pageSize !== undefined ? { limit: pageSize } : {}),
        })
        yield* page.data
        cursor = page.next_cursor ?? undefined
      } while (cursor !== undefined)
    },
    getUserByEmail: (email) => lookup({ email }),
    getUserByPhoneNumber: (phoneNumber) => lookup({ phone_number: phoneNumber }),
    getUserByWalletAddress: (address) => lookup({ wallet_address: address }),
    getUserByAccount: (account) => lookup({ account }),
    async getUserWallets(userId) {
      const { data } = await call<{ data: AppWallet[] }>('GET', routes.appUserWallets(id(userId)))
      return data
    },
    async deleteUser(userId) {
      await call('POST', routes.appUserDelete(id(userId)), {})
    },
    wallets: delegatedWallets(call),
    verifyAccessToken: (token, verifyOptions = {}) =>
      verifyAccessToken(token, {
        appId: options.appId,
        issuer,
        jwksUrl: `${base}${routes.jwks(options.appId)}`,
        ...verifyOptions,
      }),
  }
  return client
}
