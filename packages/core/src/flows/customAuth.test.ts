import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { createCustomAuthSync } from './customAuth.ts'

function setup() {
  const fake = createFakeFetch((call) => {
    if (call.url.endsWith('/custom_jwt_account/authenticate')) {
      const token = (call.body as { token: string }).token
      return token === 'bad.jwt.x'
        ? json(400, { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' })
        : json(200, authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
    }
    if (call.url.endsWith('/sessions/logout')) return new Response(null, { status: 204 })
    return json(404, { code: 'NOT_FOUND', message: 'x' })
  })
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  const exchanges = () => fake.calls.filter((c) => c.url.endsWith('/authenticate')).length
  return { client, calls: fake.calls, exchanges }
}

describe('custom-auth sync (initial/loading/done/error/not-enabled)', () => {
  it('is not-enabled when off, and exchanges nothing', async () => {
    const { client, calls } = setup()
    const sync = createCustomAuthSync(client, {
      enabled: false,
      isLoading: false,
      getCustomAccessToken: async () => 'a.b.c',
    })
    expect(sync.getState().status).toBe('initial')
    await sync.sync()
    expect(sync.getState().status).toBe('not-enabled')
    expect(calls).toHaveLength(0)
  })

  it('waits while the host is loading, then exchanges its token once', async () => {
    const { client, calls, exchanges } = setup()
    let token: string | null = 'a.b.c'
    const sync = createCustomAuthSync(client, {
      enabled: true,
      isLoading: true,
      getCustomAccessToken: async () => token,
    })
    await sync.sync()
    expect(sync.getState().status).toBe('loading')
    expect(calls).toHaveLength(0)
    await sync.sync({ isLoading: false })
    expect(sync.getState()).toEqual({ status: 'done', authenticated: true })
    expect(calls[0]?.body).toEqual({ token: 'a.b.c', mode: 'login-or-sign-up' })
    expect(client.session.getState().status).toBe('authenticated')
    await sync.sync()
    expect(exchanges()).toBe(1)
    // A new token from the host (another user, or a refresh) is exchanged again.
    token = 'd.e.f'
    await sync.sync()
    expect(exchanges()).toBe(2)
  })

  it('logs Latchkey out when the host logs out', async () => {
    const { client } = setup()
    let token: string | null = 'a.b.c'
    const sync = createCustomAuthSync(client, {
      enabled: true,
      isLoading: false,
      getCustomAccessToken: async () => token,
    })
    await sync.sync()
    expect(client.session.getState().status).toBe('authenticated')
    token = null
    await sync.sync()
    expect(sync.getState()).toEqual({ status: 'done', authenticated: false })
    expect(client.session.getState().status).toBe('unauthenticated')
  })

  it('lands in error when the token is refused or the host throws', async () => {
    const { client } = setup()
    const sync = createCustomAuthSync(client, {
      enabled: true,
      isLoading: false,
      getCustomAccessToken: async () => 'bad.jwt.x',
    })
    await sync.sync()
    const state = sync.getState()
    expect(state.status).toBe('error')
    if (state.status === 'error') expect(state.error.code).toBe('AUTHENTICATION_FAILED')
    await sync.sync({
      getCustomAccessToken: async () => {
        throw new Error('host failed')
      },
    })
    expect(sync.getState().status).toBe('error')
  })

  it('folds concurrent syncs into one more run', async () => {
    const { client, exchanges } = setup()
    const sync = createCustomAuthSync(client, {
      enabled: true,
      isLoading: false,
      getCustomAccessToken: async () => 'a.b.c',
    })
    await Promise.all([sync.sync(), sync.sync(), sync.sync()])
    expect(exchanges()).toBe(1)
    expect(sync.getState().status).toBe('done')
  })
})

describe('custom-auth sync stability', () => {
  it('emits nothing when a sync changes nothing (hosts re-sync on every render)', async () => {
    const fake = createFakeFetch(() =>
      json(200, authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 })),
    )
    const client = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://api.test',
      fetch: fake.fetch,
      storage: createMemoryStorage(),
      cookies: { get: () => null, set: () => {}, remove: () => {} },
      http: { sleep: async () => {}, maxRetries: 0 },
    })
    const sync = createCustomAuthSync(client, {
      enabled: true,
      isLoading: false,
      getCustomAccessToken: async () => 'a.b.c',
    })
    await sync.sync()
    let emitted = 0
    sync.subscribe(() => emitted++)
    for (let i = 0; i < 5; i++) await sync.sync()
    expect(emitted).toBe(0)
    expect(fake.calls).toHaveLength(1)
  })
})
