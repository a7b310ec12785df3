import {
  REFRESH_MARKER_COOKIE,
  REFRESH_MARKER_COOKIE_DAYS,
  StorageKey,
  TOKEN_EXPIRY_MARGIN_MS,
} from '@latchkey/protocol/constants'
import type { AuthResponse, UsersMeResponse } from '@latchkey/protocol/schemas'
import { sessionRoutes } from '@latchkey/protocol/session-routes'
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
  /**
   * Follows the app's other tabs (docs/client.md "Sessions across tabs"):
   * their logout ends this tab's session, their login is taken up from
   * storage, their refresh is used instead of refreshing again, and their
   * link or unlink fetches the user again. Needs a storage shared between
   * tabs (`KeyValueStorage.watch`, as `createLocalStorage` in a window has);
   * a no-op otherwise. Returns what stops it.
   */
  syncAcrossTabs(): () => void
}

/** Runs `task` while no other tab of the app runs one under the same lock. */
export type SessionLock = <T>(task: () => Promise<T>) => Promise<T>

export interface SessionStoreOptions {
  appId: string
  http: HttpClient
  storage: KeyValueStorage
  cookies: CookieJar
  now?: () => number
  onLogout?: () => void
  /**
   * Serializes refreshes across the app's tabs, so two tabs never rotate the
   * same refresh token: the second one finds the first one's tokens. Default:
   * Web Locks (`navigator.locks`) where the browser has them.
   */
  lock?: SessionLock
}

/** One Web Lock per app (`navigator.locks`); undefined where there are none. */
function webLock(appId: string): SessionLock | undefined {
  const locks = (globalThis as { navigator?: { locks?: LockManager | null } }).navigator?.locks
  if (!locks || typeof locks.request !== 'function') return undefined
  return <T>(task: () => Promise<T>) =>
    locks.request(`latchkey:refresh:${appId}`, () => task()) as Promise<T>
}

/** What tells one login's session from another: the `sid` claim (else the user). */
function sessionOf(token: string | null): string | null {
  const claims = token ? decodeJwt(token) : null
  return claims?.sid ?? claims?.sub ?? null
}

/**
 * The session store of spec 01 §4: access, refresh and identity tokens,
 * single-flight refresh, tokens expired 30 s early, a token issued for another
 * app logs out, and a failed refresh clears local state.
 */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { appId, http, storage, cookies, now = Date.now } = options
  const lock = options.lock ?? webLock(appId)
  const userChangedKey = StorageKey.userChanged.replace('{appId}', appId)
  const listeners = new Set<() => void>()
  let state: SessionState = { status: 'loading', user: null }
  let refreshing: Promise<User> | null = null
  let initialized: Promise<void> | null = null
  // The session the shown user came with: another tab's new login differs from it.
  let sessionId: string | null = null

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
    sessionId = null
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

  /** Tells the app's other tabs that the user changed within the session: they fetch it again. */
  function announceUserChange() {
    storage.set(userChangedKey, Math.random().toString(36).slice(2))
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
        // Same session, new user: other tabs see no new login in the tokens.
        announceUserChange()
        break
    }
    sessionId = sessionOf(accessToken())
    setState({ status: 'authenticated', user })
    return user
  }

  /** The user as the server has it now, shown (no refresh on 401: the caller decides). */
  async function fetchUser(token: string): Promise<User> {
    const me = await http.request<UsersMeResponse>(sessionRoutes.usersMe, { token })
    if (me.identity_token) storage.set(StorageKey.identityToken, me.identity_token)
    const user = toUser(me.user)
    sessionId = sessionOf(token)
    setState({ status: 'authenticated', user })
    return user
  }

  /**
   * Another tab refreshed while this one waited for the lock: its fresh
   * tokens are in storage, so use them rather than rotate again.
   */
  async function refreshedElsewhere(stale: string | null): Promise<User | null> {
    const token = accessToken()
    if (!token || token === stale || belongsToOtherApp(token)) return null
    const claims = decodeJwt(token)
    if (!claims || isExpired(claims, now(), TOKEN_EXPIRY_MARGIN_MS)) return null
    if (state.user && claims.sub === state.user.id) {
      sessionId = sessionOf(token)
      return state.user
    }
    return fetchUser(token).catch(() => null)
  }

  function refresh(): Promise<User> {
    if (refreshing) return refreshing
    const stale = accessToken()
    const run = async () => {
      const adopted = await refreshedElsewhere(stale)
      if (adopted) return adopted
      const token = refreshToken()
      if (!token) {
        clear()
        throw new LatchkeyError('INVALID_REFRESH_TOKEN')
      }
      try {
        const response = await http.request<AuthResponse>(sessionRoutes.sessionRefresh, {
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
    }
    refreshing = (lock ? lock(run) : run()).finally(() => {
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
      await fetchUser(token)
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

  /**
   * Takes up what another tab left in storage: no tokens is a logout, a
   * token of another session a login (its user is fetched), the same
   * session a refresh (nothing to do: tokens are read from storage when
   * used), unless that tab said the user changed.
   */
  async function takeUpStoredSession(userChanged: boolean): Promise<void> {
    if (initialized) await initialized
    const token = accessToken()
    if (!token && !refreshToken()) {
      if (state.status === 'unauthenticated') return
      sessionId = null
      setState({ status: 'unauthenticated', user: null })
      options.onLogout?.()
      return
    }
    // Half written (a refresh or a logout under way), or another app's: the next change says.
    if (!token || belongsToOtherApp(token)) return
    const sameSession = state.status === 'authenticated' && sessionOf(token) === sessionId
    if (sameSession && !userChanged) return
    const fresh = await getAccessToken()
    if (fresh) await loadUser(fresh)
  }

  // One change at a time, in the order the other tabs made them.
  let syncQueue: Promise<void> = Promise.resolve()
  function syncFromStorage(key: string | null): Promise<void> {
    const userChanged = key === userChangedKey
    if (
      !userChanged &&
      key !== null &&
      key !== StorageKey.accessToken &&
      key !== StorageKey.refreshToken
    )
      return syncQueue
    syncQueue = syncQueue
      .then(() => takeUpStoredSession(userChanged))
      // A failed fetch keeps what this tab shows; the next change or request tries again.
      .catch(() => {})
    return syncQueue
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
      announceUserChange()
    },
    getAccessToken,
    peekAccessToken: accessToken,
    refresh,
    async logout() {
      const token = refreshToken()
      try {
        if (token || accessToken())
          await http.request(sessionRoutes.sessionLogout, {
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
    syncAcrossTabs() {
      return storage.watch?.((key) => syncFromStorage(key)) ?? (() => {})
    },
  }
}
