import { StorageKey } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import { beforeEach, describe, expect, it } from 'vitest'
import { createHttpClient } from './http.ts'
import { createSessionStore, type SessionLock } from './session.ts'
import { createMemoryStorage } from './storage.ts'
import {
  APP_ID,
  createFakeFetch,
  fakeJwt,
  type Handler,
  json,
  wireUser,
} from './test/fake-server.ts'
import { createSharedLock, createSharedStorage } from './test/shared-storage.ts'

// docs/client.md "Sessions across tabs": the tabs of one app share their
// tokens (localStorage); a login, refresh, logout, link or unlink in one
// shows in the others without a reload, and two tabs never rotate the same
// refresh token.

const NOW = 1_800_000_000_000
const inSeconds = (s: number) => Math.floor(NOW / 1000) + s
/** The tabs' clock. */
const clock = { now: NOW }
const OTHER_APP = 'otherappaaaaaaaaaaaaaaaaa'
const USER = wireUser().id

const token = (options: { sid: string; exp?: number; aud?: string }) =>
  fakeJwt({
    sub: USER,
    sid: options.sid,
    aud: options.aud ?? APP_ID,
    exp: options.exp ?? inSeconds(3600),
  })

const login = (options: { sid: string; exp?: number; refresh?: string }) => ({
  user: wireUser(),
  is_new_user: false,
  token: token(options),
  refresh_token: options.refresh ?? `refresh-${options.sid}`,
  identity_token: null,
  session_update_action: 'set' as const,
})

/** A tab: its own session store and server calls over the shared storage. */
function openTab(
  shared: ReturnType<typeof createSharedStorage>,
  handler: Handler,
  options: { appId?: string; lock?: SessionLock } = {},
) {
  const fake = createFakeFetch(handler)
  const storage = shared.tab()
  let store: ReturnType<typeof createSessionStore>
  const http = createHttpClient({
    apiUrl: 'http://api.test',
    appId: options.appId ?? APP_ID,
    fetch: fake.fetch,
    sleep: async () => {},
    getAccessToken: () => store.peekAccessToken(),
  })
  store = createSessionStore({
    appId: options.appId ?? APP_ID,
    http,
    storage,
    cookies: createMemoryStorage(),
    now: () => clock.now,
    lock: options.lock,
  })
  const stop = store.syncAcrossTabs()
  const paths = () => fake.calls.map((call) => new URL(call.url).pathname)
  return { store, stop, calls: fake.calls, paths }
}

/** Answers /users/me with `user`, anything else with 500. */
const usersMe =
  (user: object = wireUser()): Handler =>
  (call) =>
    new URL(call.url).pathname === routes.usersMe ? json(200, { user }) : json(500, {})

describe('sessions across tabs', () => {
  beforeEach(() => {
    clock.now = NOW
  })

  it('a logout in one tab ends the session in the other, without a server call there', async () => {
    const shared = createSharedStorage()
    const a = openTab(shared, () => json(200, { success: true }))
    const b = openTab(shared, usersMe())
    a.store.applyAuthResponse(login({ sid: 's1' }))
    await shared.deliver()
    expect(b.store.getState()).toMatchObject({ status: 'authenticated', user: { id: USER } })
    const before = b.calls.length

    await a.store.logout()
    await shared.deliver()
    expect(b.store.getState()).toEqual({ status: 'unauthenticated', user: null })
    expect(b.calls).toHaveLength(before)
  })

  it('a login in one tab logs the other in with the user from the server', async () => {
    const shared = createSharedStorage()
    const a = openTab(shared, () => json(500, {}))
    const b = openTab(shared, usersMe())
    await b.store.initialize()
    expect(b.store.getState().status).toBe('unauthenticated')

    a.store.applyAuthResponse(login({ sid: 's1' }))
    await shared.deliver()
    expect(b.store.getState()).toMatchObject({ status: 'authenticated', user: { id: USER } })
    // Taken up from storage: no refresh of its own, one fetch of the user.
    expect(b.paths()).toEqual([routes.usersMe])

    // Logged out and in again elsewhere: a new session, taken up again.
    a.store.clear()
    a.store.applyAuthResponse(login({ sid: 's2' }))
    await shared.deliver()
    expect(b.store.getState().status).toBe('authenticated')
    expect(await b.store.getAccessToken()).toBe(token({ sid: 's2' }))
  })

  it('a refresh in one tab is used by the other, which neither refreshes nor fetches the user', async () => {
    const shared = createSharedStorage()
    const refreshed = login({ sid: 's1', exp: inSeconds(7200), refresh: 'r2' })
    const a = openTab(shared, () => json(200, refreshed))
    const b = openTab(shared, usersMe())
    a.store.applyAuthResponse(login({ sid: 's1', refresh: 'r1' }))
    await shared.deliver()
    const before = b.calls.length

    await a.store.refresh()
    await shared.deliver()
    expect(b.calls).toHaveLength(before)
    expect(b.store.getState()).toMatchObject({ status: 'authenticated', user: { id: USER } })
    // An hour later the first token has expired; the second one is still good.
    clock.now = NOW + 3_600_000
    expect(await b.store.getAccessToken()).toBe(refreshed.token)
    expect(b.calls).toHaveLength(before)
  })

  it('two tabs whose token expires refresh it once: the second takes up the first one’s tokens', async () => {
    const shared = createSharedStorage()
    const lock = createSharedLock()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const refreshed = login({ sid: 's1', exp: inSeconds(7200), refresh: 'r2' })
    const refreshing: Handler = async (call) => {
      if (new URL(call.url).pathname === routes.usersMe) return json(200, { user: wireUser() })
      await gate
      return json(200, refreshed)
    }
    const a = openTab(shared, refreshing, { lock })
    const b = openTab(shared, refreshing, { lock })
    a.store.applyAuthResponse(login({ sid: 's1', refresh: 'r1' }))
    await shared.deliver()
    // An hour later both tabs find the token expired.
    clock.now = NOW + 3_600_000

    const both = Promise.all([a.store.getAccessToken(), b.store.getAccessToken()])
    release()
    expect(await both).toEqual([refreshed.token, refreshed.token])
    const refreshes = [...a.calls, ...b.calls].filter(
      (call) => new URL(call.url).pathname === routes.sessionRefresh,
    )
    expect(refreshes.map((call) => call.body)).toEqual([{ refresh_token: 'r1' }])
  })

  it('a link in one tab fetches the user again in the other tabs of that app only', async () => {
    const shared = createSharedStorage()
    const linked = {
      ...wireUser(),
      linked_accounts: [
        ...wireUser().linked_accounts,
        {
          type: 'phone' as const,
          number: '+14155550100',
          verified_at: 1,
          first_verified_at: 1,
          latest_verified_at: 1,
        },
      ],
    }
    let server: object = wireUser()
    const a = openTab(shared, () => json(500, {}))
    const b = openTab(shared, (call) => usersMe(server)(call))
    const other = openTab(shared, usersMe(), { appId: OTHER_APP })
    a.store.applyAuthResponse(login({ sid: 's1' }))
    await shared.deliver()
    expect(b.store.getState().user?.phone).toBeUndefined()
    const before = b.calls.length

    // The phone is linked in tab A (core's linkPhone sets the user it gets back).
    server = linked
    const user = a.store.getState().user
    if (user) a.store.setUser(user)
    expect(shared.pending()).toEqual([StorageKey.userChanged.replace('{appId}', APP_ID)])
    await shared.deliver()
    expect(b.calls).toHaveLength(before + 1)
    expect(b.store.getState().user?.phone?.number).toBe('+14155550100')
    // Another app on the origin: its tokens are not its, and its user did not change.
    expect(other.calls).toHaveLength(0)
    expect(other.store.getState().user).toBeNull()
    // Fetching the user is no change of its own: nothing echoes back.
    expect(shared.pending()).toEqual([])
  })

  it('another app’s login on the same origin is not taken up', async () => {
    const shared = createSharedStorage()
    const a = openTab(shared, () => json(500, {}), { appId: OTHER_APP })
    const b = openTab(shared, usersMe())
    await b.store.initialize()
    a.store.applyAuthResponse({
      ...login({ sid: 's1' }),
      token: token({ sid: 's1', aud: OTHER_APP }),
    })
    await shared.deliver()
    expect(b.store.getState().status).toBe('unauthenticated')
    expect(b.calls).toHaveLength(0)
  })

  it('stops following the other tabs once stopped', async () => {
    const shared = createSharedStorage()
    const a = openTab(shared, () => json(200, { success: true }))
    const b = openTab(shared, usersMe())
    a.store.applyAuthResponse(login({ sid: 's1' }))
    await shared.deliver()
    b.stop()
    await a.store.logout()
    await shared.deliver()
    expect(b.store.getState().status).toBe('authenticated')
  })

  it('a storage shared with no other tab (memory) has nothing to follow', () => {
    const store = createSessionStore({
      appId: APP_ID,
      http: createHttpClient({ apiUrl: 'http://api.test', appId: APP_ID }),
      storage: createMemoryStorage(),
      cookies: createMemoryStorage(),
    })
    expect(() => store.syncAcrossTabs()()).not.toThrow()
  })
})
