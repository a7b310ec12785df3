import { REFRESH_MARKER_COOKIE, StorageKey } from '@latchkey/protocol/constants'
import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { attachEnclave } from '../wallets/enclave.ts'
import { deleteAccount } from './deleteAccount.ts'

// deleteAccount: the enclave deletes the account at the server (a key route),
// then the local session ends as at logout, without calling the server's
// logout — every session of the user is already gone.
function setup(answer: (event: string) => unknown, options: { loggedIn?: boolean } = {}) {
  const fake = createFakeFetch(() => json(200, { success: true }))
  const storage = createMemoryStorage()
  const removed: string[] = []
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage,
    cookies: { get: () => null, set() {}, remove: (name) => void removed.push(name) },
  })
  if (options.loggedIn !== false)
    client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  const request = vi.fn(async (event: string, _data: unknown, _options?: unknown) => answer(event))
  attachEnclave(client, {
    origin: 'http://localhost:8787',
    request: request as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  const notified = vi.fn()
  client.session.subscribe(notified)
  return { client, request, fetchCalls: fake.calls, storage, notified, removed }
}

describe('deleteAccount', () => {
  it('asks the enclave with a fresh access token, then ends the session locally without a server logout', async () => {
    const s = setup(() => ({ success: true }))
    const token = s.storage.get(StorageKey.accessToken)
    await deleteAccount(s.client)
    expect(s.request).toHaveBeenCalledOnce()
    expect(s.request.mock.calls[0]?.slice(0, 2)).toEqual([
      'latchkey:account:delete',
      { access_token: token },
    ])
    expect(s.client.session.getState()).toEqual({ status: 'unauthenticated', user: null })
    expect(s.notified).toHaveBeenCalled()
    for (const key of [StorageKey.accessToken, StorageKey.refreshToken, StorageKey.identityToken])
      expect(s.storage.get(key)).toBeNull()
    expect(s.removed).toContain(REFRESH_MARKER_COOKIE)
    // No request to the server from the host page: no logout, nothing else.
    expect(s.fetchCalls).toEqual([])
  })

  it('on a refusal it rejects with the LatchkeyError and keeps the session', async () => {
    const refused = new LatchkeyError('ENCLAVE_PROOF_INVALID', undefined, { status: 401 })
    const s = setup(() => {
      throw refused
    })
    const token = s.storage.get(StorageKey.accessToken)
    await expect(deleteAccount(s.client)).rejects.toBe(refused)
    expect(s.client.session.getState().status).toBe('authenticated')
    expect(s.storage.get(StorageKey.accessToken)).toBe(token)
    expect(s.notified).not.toHaveBeenCalled()
  })

  it('logged out: NOT_AUTHENTICATED, and the enclave is not asked', async () => {
    const s = setup(() => ({ success: true }), { loggedIn: false })
    await expect(deleteAccount(s.client)).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' })
    expect(s.request).not.toHaveBeenCalled()
  })
})
