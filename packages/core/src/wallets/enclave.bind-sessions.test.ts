import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { ENCLAVE_KEY_WAIT_MS } from '../session-key.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID } from '../test/fake-server.ts'
import { attachEnclave, bindSessionsToEnclave } from './enclave.ts'

const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'

const clientAt = (apiUrl: string) =>
  createLatchkeyClient({
    appId: APP_ID,
    apiUrl,
    fetch: vi.fn() as unknown as typeof fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })

describe('bindSessionsToEnclave', () => {
  it("makes the enclave key's thumbprint the client's session key, asked with the bounded wait", async () => {
    const client = clientAt('http://localhost:8787')
    const keyThumbprint = vi.fn(async () => JKT)
    attachEnclave(client, {
      origin: 'http://localhost:8787',
      request: vi.fn(),
      keyThumbprint,
      destroy() {},
    })
    const unbind = bindSessionsToEnclave(client)
    expect(await client.sessionKey()).toBe(JKT)
    expect(keyThumbprint).toHaveBeenCalledWith({ timeoutMs: ENCLAVE_KEY_WAIT_MS })
    unbind()
    expect(await client.sessionKey()).toBeUndefined()
  })

  it('installs nothing where the enclave cannot run (plain HTTP off localhost)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const client = clientAt('http://api.test')
    expect(() => bindSessionsToEnclave(client)()).not.toThrow()
    expect(await client.sessionKey()).toBeUndefined()
    expect(warn).not.toHaveBeenCalled()
    warn.mockRestore()
  })
})
