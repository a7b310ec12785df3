import { StorageKey } from '@latchkey/protocol/constants'
import { describe, expect, it, vi } from 'vitest'
import { createHttpClient } from './http.ts'
import { createSessionStore } from './session.ts'
import { createMemoryStorage } from './storage.ts'
import {
  APP_ID,
  authResponse,
  createFakeFetch,
  fakeJwt,
  json,
  wireUser,
} from './test/fake-server.ts'

const NOW = 1_800_000_000_000
const inSeconds = (s: number) => Math.floor(NOW / 1000) + s

function setup(handler: Parameters<typeof createFakeFetch>[0]) {
  const storage = createMemoryStorage()
  const cookies = createMemoryStorage()
  const fake = createFakeFetch(handler)
  let store: ReturnType<typeof createSessionStore>
  const http = createHttpClient({
    apiUrl: 'http://api.test',
    appId: APP_ID,
    fetch: fake.fetch,
    sleep: async () => {},
    getAccessToken: () => store.peekAccessToken(),
  })
  const onLogout = vi.fn()
  store = createSessionStore({
    appId: APP_ID,
    http,
    storage,
    cookies: { get: cookies.get, set: (n, v) => cookies.set(n, v), remove: cookies.remove },
    now: () => NOW,
    onLogout,
  })
  return { store, storage, cookies, calls: fake.calls, onLogout }
}

describe('session_update_action (spec 01 §4)', () => {
  it("'set' stores every token and the refresh marker", () => {
    const { store, storage, cookies } = setup(() => json(500, {}))
    store.applyAuthResponse(authResponse({ exp: inSeconds(3600), refresh: 'r1' }))
    expect(storage.get(StorageKey.accessToken)).toBeTruthy()
    expect(storage.get(StorageKey.refreshToken)).toBe('r1')
    expect(storage.get(StorageKey.identityToken)).toBe('id-token')
    expect(cookies.get('latchkey-session')).toBe('t')
    expect(store.getState()).toMatchObject({
      status: 'authenticated',
      user: { email: { address: 'alice@example.com' } },
    })
  })

  it("'clear' destroys local state", () => {
    const { store, storage } = setup(() => json(500, {}))
    store.applyAuthResponse(authResponse({ exp: inSeconds(3600) }))
    store.applyAuthResponse({
      ...authResponse({ exp: inSeconds(3600) }),
      session_update_action: 'clear',
    })
    expect(storage.get(StorageKey.accessToken)).toBeNull()
    expect(storage.get(StorageKey.refreshToken)).toBeNull()
    expect(store.getState().status).toBe('unauthenticated')
  })

  it("'ignore' updates access and identity tokens but keeps the refresh token", () => {
    const { store, storage } = setup(() => json(500, {}))
    store.applyAuthResponse(authResponse({ exp: inSeconds(3600), refresh: 'r1' }))
    const next = {
      ...authResponse({ exp: inSeconds(7200), refresh: 'r-other' }),
      session_update_action: 'ignore' as const,
      identity_token: 'id-2',
    }
    store.applyAuthResponse(next)
    expect(storage.get(StorageKey.refreshToken)).toBe('r1')
    expect(storage.get(StorageKey.accessToken)).toBe(next.token)
    expect(storage.get(StorageKey.identityToken)).toBe('id-2')
  })
})

describe('access tokens and refresh', () => {
  it('returns a fresh token without calling the server', async () => {
    const { store, calls } = setup(() => json(500, {}))
    store.applyAuthResponse(authResponse({ exp: inSeconds(3600) }))
    await expect(store.getAccessToken()).resolves.toBeTruthy()
    expect(calls).toHaveLength(0)
  })

  it('counts a token expiring within 30 s as expired and refreshes it', async () => {
    const { store, calls } = setup(() =>
      json(200, authResponse({ exp: inSeconds(3600), refresh: 'r2' })),
    )
    store.applyAuthResponse(authResponse({ exp: inSeconds(29), refresh: 'r1' }))
    const token = await store.getAccessToken()
    expect(calls).toHaveLength(1)
    expect(calls[0]?.body).toEqual({ refresh_token: 'r1' })
    expect(token).toBe(authResponse({ exp: inSeconds(3600) }).token)
  })

  it('runs at most one refresh at a time (single-flight)', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => {
      release = r
    })
    const { store, calls } = setup(async () => {
      await gate
      return json(200, authResponse({ exp: inSeconds(3600) }))
    })
    store.applyAuthResponse(authResponse({ exp: inSeconds(10), refresh: 'r1' }))
    const all = Promise.all([store.getAccessToken(), store.getAccessToken(), store.refresh()])
    release()
    await all
    expect(calls).toHaveLength(1)
  })

  it('fails softly when the refresh token is refused: clears state with the spec message', async () => {
    const { store, storage, onLogout } = setup(() =>
      json(401, { code: 'INVALID_REFRESH_TOKEN', message: 'nope' }),
    )
    store.applyAuthResponse(authResponse({ exp: inSeconds(10), refresh: 'r1' }))
    await expect(store.refresh()).rejects.toMatchObject({
      code: 'INVALID_REFRESH_TOKEN',
      message: 'Unable to refresh tokens - token is missing or no longer valid',
    })
    expect(storage.get(StorageKey.refreshToken)).toBeNull()
    expect(store.getState().status).toBe('unauthenticated')
    expect(onLogout).toHaveBeenCalled()
    await expect(store.getAccessToken()).resolves.toBeNull()
  })

  it('fails softly when the refresh token is missing', async () => {
    const { store } = setup(() => json(500, {}))
    await expect(store.refresh()).rejects.toMatchObject({ code: 'INVALID_REFRESH_TOKEN' })
    expect(store.getState().status).toBe('unauthenticated')
  })

  it('keeps the tokens when the network fails during refresh', async () => {
    const { store, storage } = setup(() => {
      throw new TypeError('fetch failed')
    })
    store.applyAuthResponse(authResponse({ exp: inSeconds(10), refresh: 'r1' }))
    await expect(store.refresh()).rejects.toMatchObject({ code: 'NETWORK_ERROR' })
    expect(storage.get(StorageKey.refreshToken)).toBe('r1')
  })

  it('logs out when a stored token was issued for another app id', async () => {
    const { store, storage } = setup(() => json(500, {}))
    storage.set(
      StorageKey.accessToken,
      fakeJwt({ aud: 'otherappaaaaaaaaaaaaaaaaa', exp: inSeconds(3600) }),
    )
    storage.set(StorageKey.refreshToken, 'r1')
    await store.initialize()
    expect(store.getState().status).toBe('unauthenticated')
    expect(storage.get(StorageKey.refreshToken)).toBeNull()
  })
})

describe('initialize', () => {
  it('with a valid access token loads the user', async () => {
    const { store, storage, calls } = setup(() =>
      json(200, { user: wireUser(), identity_token: 'id-9' }),
    )
    storage.set(StorageKey.accessToken, fakeJwt({ aud: APP_ID, exp: inSeconds(3600) }))
    await store.initialize()
    expect(calls[0]?.url).toBe('http://api.test/api/v1/users/me')
    expect(store.getState()).toMatchObject({ status: 'authenticated', user: { id: wireUser().id } })
  })

  it('with only a refresh token refreshes (page reload keeps the user logged in)', async () => {
    const { store, storage, calls } = setup(() =>
      json(200, authResponse({ exp: inSeconds(3600), refresh: 'r2' })),
    )
    storage.set(StorageKey.refreshToken, 'r1')
    await store.initialize()
    expect(calls[0]?.url).toBe('http://api.test/api/v1/sessions')
    expect(storage.get(StorageKey.refreshToken)).toBe('r2')
    expect(store.getState().status).toBe('authenticated')
  })

  it('with nothing stored is unauthenticated without a request', async () => {
    const { store, calls } = setup(() => json(500, {}))
    await store.initialize()
    expect(store.getState().status).toBe('unauthenticated')
    expect(calls).toHaveLength(0)
  })
})

describe('logout', () => {
  it('revokes the session on the server and clears local state', async () => {
    const { store, storage, calls } = setup(() => json(200, { success: true }))
    store.applyAuthResponse(authResponse({ exp: inSeconds(3600), refresh: 'r1' }))
    await store.logout()
    expect(calls[0]?.url).toBe('http://api.test/api/v1/sessions/logout')
    expect(calls[0]?.body).toEqual({ refresh_token: 'r1' })
    expect(storage.get(StorageKey.accessToken)).toBeNull()
    expect(store.getState().status).toBe('unauthenticated')
  })

  it('clears local state even when the server is unreachable', async () => {
    const { store } = setup(() => {
      throw new TypeError('fetch failed')
    })
    store.applyAuthResponse(authResponse({ exp: inSeconds(3600) }))
    await store.logout()
    expect(store.getState().status).toBe('unauthenticated')
  })
})
