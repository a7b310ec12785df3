import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from './client.ts'
import { createMemoryStorage } from './storage.ts'
import { APP_ID, createFakeFetch, json } from './test/fake-server.ts'

afterEach(() => vi.useRealTimers())

describe('createLatchkeyClient', () => {
  it('refuses an app id that is not 25 characters', () => {
    expect(() => createLatchkeyClient({ appId: 'short', apiUrl: 'http://api.test' })).toThrow(
      'App ID must be a 25-character string',
    )
  })

  it('keeps one analytics id per browser and sends it as a header', async () => {
    const storage = createMemoryStorage()
    const fake = createFakeFetch(() => json(200, { id: APP_ID }))
    const a = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://api.test',
      storage,
      fetch: fake.fetch,
    })
    await a.getAppConfig()
    createLatchkeyClient({ appId: APP_ID, apiUrl: 'http://api.test', storage, fetch: fake.fetch })
    const id = storage.get('latchkey:caid')
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect(fake.calls[0]?.headers['latchkey-ca-id']).toBe(id)
  })

  it('fetches the app configuration once', async () => {
    const fake = createFakeFetch(() => json(200, { id: APP_ID }))
    const client = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://api.test',
      storage: createMemoryStorage(),
      fetch: fake.fetch,
    })
    await Promise.all([client.getAppConfig(), client.getAppConfig()])
    expect(fake.calls).toHaveLength(1)
  })

  it('sends analytics events once, never retried, failures silent', async () => {
    vi.useFakeTimers()
    const fake = createFakeFetch(() => json(503, {}))
    const client = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://api.test',
      storage: createMemoryStorage(),
      fetch: fake.fetch,
    })
    client.trackEvent('sdk_initialize', { a: 1 })
    // A 503 is retried with backoff elsewhere: every timer that could bring a retry has run.
    await vi.runAllTimersAsync()
    expect(fake.calls).toHaveLength(1)
    expect(fake.calls[0]?.body).toMatchObject({ event_name: 'sdk_initialize', payload: { a: 1 } })
  })

  it('refuses authenticated calls when logged out', async () => {
    const fake = createFakeFetch(() => json(200, {}))
    const client = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://api.test',
      storage: createMemoryStorage(),
      fetch: fake.fetch,
    })
    await expect(client.authedRequest('/x', {})).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    })
    expect(fake.calls).toHaveLength(0)
  })
})
