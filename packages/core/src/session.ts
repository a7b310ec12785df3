import {
  REFRESH_MARKER_COOKIE,
  REFRESH_MARKER_COOKIE_DAYS,
  StorageKey,
  TOKEN_EXPIRY_MARGIN_MS,
} from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import type { AuthResponse, UsersMeResponse } from '@latchkey/protocol/schemas'
import { LatchkeyError } from './errors.ts'
import type { HttpClient } from './http.ts'
import { decodeJwt, isExpired, tokenAppId } from './jwt.ts'
import type { CookieJar, KeyValueStorage } from './storage.ts'
import { toUser, type User } from './user.ts'

export type SessionStatus = 'loading' | 'unauthenticated' | 'authenticated'

export interface SessionState {
  status: SessionStatus
  user: User | null
}

export interface SessionStore {
  getState(): SessionState
  subscribe(listener: () => void): () => void
  /** Loads stored tokens; refreshes or fetches the user as needed. Idempotent. */
  initialize(): Promise<void>
  /** Stores an auth response according to its `session_update_action` (spec 01 §4). */
  applyAuthResponse(response: AuthResponse): User
  /** Replaces the current user (after link/unlink/update). */
  setUser(user: User): void
  /** A valid access token, refreshing first when it expires within 30 s; null when logged out. */
  getAccessToken(): Promise<string | null>
  /** The stored access token as is (may be expired); for request headers. */
  peekAccessToken(): string | null
  /** Refreshes the session (single-flight). Throws INVALID_REFRESH_TOKEN after clearing state. */
  refresh(): Promise<User>
  /** Ends the session on the server (best effort) and clears local state. */
  logout(): Promise<void>
  /** Destroys local session state without calling the server. */
  clear(): void
}

export interface SessionStoreOptions {
  appId: string
  http: HttpClient
  storage: KeyValueStorage
  cookies: CookieJar
  now?: () => number
  onLogout?: () => void
}

/**
 * The session store of spec 01 §4: access, refresh and identity tokens,
 * single-flight refresh, tokens expired 30 s early, a token issued for another
 * app logs out, and a failed refresh clears local state.
 */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { appId, http, storage, cookies, now = Date.now } = options
  const listeners = new Set<() => void>()
  let state: SessionState = { status: 'loading', user: null }
  let refreshing: Promise<User> | null = null
  let initialized: Promise<void> | null = null

  const setState = (next: SessionState) => {
    state = next
    for (const listener of listeners) listener()
  }

  const accessToken = () => storage.get(StorageKey.accessToken)
  const refreshToken = () => storage.get(StorageKey.refreshToken)

  function clear() {
    storage.remove(StorageKey.accessToken)
    storage.remove(StorageKey.refreshToken)
    storage.remove(StorageKey.identityToken)
    cookies.remove(REFRESH_MARKER_COOKIE)
    if (state.status !== 'unauthenticated' || state.user) {
      setState({ status: 'unauthenticated', user: null })
    }
    options.onLogout?.()
  }

  function belongsToOtherApp(token: string): boolean {
    const claims = decodeJwt(token)
    const aud = claims && tokenAppId(claims)
    return aud !== undefined && aud !== appId
  }

  function applyAuthResponse(response: AuthResponse): User {
    const user = toUser(response.user)
    switch (response.session_update_action) {
      case 'clear':
        clear()
        return user
      case 'set':
        if (response.token) storage.set(StorageKey.accessToken, response.token)
        if (response.refresh_token) storage.set(StorageKey.refreshToken, response.refresh_token)
        if (response.identity_token) storage.set(StorageKey.identityToken, response.identity_token)
        else storage.remove(StorageKey.identityToken)
        cookies.set(REFRESH_MARKER_COOKIE, 't', REFRESH_MARKER_COOKIE_DAYS * 86_400)
        break
      case 'ignore':
        // Only the access and identity tokens are updated; the refresh token stays.
        if (response.token) storage.set(StorageKey.accessToken, response.token)
        if (response.identity_token) storage.set(StorageKey.identityToken, response.identity_token)
        break
    }
    setState({ status: 'authenticated', user })
    return user
  }

  function refresh(): Promise<User> {
    if (refreshing) return refreshing
    refreshing = (async () => {
      const token = refreshToken()
      if (!token) {
        clear()
        throw new LatchkeyError('INVALID_REFRESH_TOKEN')
      }
      try {
        const response = await http.request<AuthResponse>(routes.sessionRefresh, {
          body: { refresh_token: token },
          token: accessToken(),
        })
        if (response.token && belongsToOtherApp(response.token)) {
          clear()
          throw new LatchkeyError('INVALID_REFRESH_TOKEN')
        }
        return applyAuthResponse(response)
      } catch (error) {
        // Network trouble keeps the tokens; a refused token ends the session.
        if (
          error instanceof LatchkeyError &&
          (error.status === 401 || error.code === 'INVALID_REFRESH_TOKEN')
        ) {
          clear()
          throw new LatchkeyError('INVALID_REFRESH_TOKEN', undefined, { cause: error })
        }
        throw error
      }
    })().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  async function getAccessToken(): Promise<string | null> {
    if (initialized) await initialized
    const token = accessToken()
    if (token) {
      if (belongsToOtherApp(token)) {
        clear()
        return null
      }
      const claims = decodeJwt(token)
      if (claims && !isExpired(claims, now(), TOKEN_EXPIRY_MARGIN_MS)) return token
    }
    if (!refreshToken()) return null
    try {
      await refresh()
      return accessToken()
    } catch (error) {
      if (error instanceof LatchkeyError && error.code === 'INVALID_REFRESH_TOKEN') return null
      throw error
    }
  }

  async function loadUser(token: string): Promise<void> {
    try {
      const me = await http.request<UsersMeResponse>(routes.usersMe, { token })
      if (me.identity_token) storage.set(StorageKey.identityToken, me.identity_token)
      setState({ status: 'authenticated', user: toUser(me.user) })
    } catch (error) {
      if (error instanceof LatchkeyError && error.status === 401) {
        // A revoked or expired session: try the refresh token once.
        await refresh()
        return
      }
      throw error
    }
  }

  async function doInitialize(): Promise<void> {
    const token = accessToken()
    if (token && belongsToOtherApp(token)) {
      clear()
      return
    }
    const claims = token ? decodeJwt(token) : null
    try {
      if (token && claims && !isExpired(claims, now(), TOKEN_EXPIRY_MARGIN_MS))
        await loadUser(token)
      else if (refreshToken()) await refresh()
      else setState({ status: 'unauthenticated', user: null })
    } catch {
      // A soft failure: keep stored tokens if the network failed, but show logged out.
      if (state.status === 'loading') setState({ status: 'unauthenticated', user: null })
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    initialize() {
      initialized ??= doInitialize()
      return initialized
    },
    applyAuthResponse,
    setUser(user) {
      setState({ status: 'authenticated', user })
    },
    getAccessToken,
    peekAccessToken: accessToken,
    refresh,
    async logout() {
      const token = refreshToken()
      try {
        if (token || accessToken())
          await http.request(routes.sessionLogout, {
            body: token ? { refresh_token: token } : {},
            token: accessToken(),
            retry: false,
          })
      } catch {
        // Logging out locally must not depend on the network.
      } finally {
        clear()
      }
    },
    clear,
  }
}
