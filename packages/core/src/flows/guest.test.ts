import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { clearGuestCredential, getOrCreateGuestCredential, loginAsGuest } from './guest.ts'

const exp = Math.floor(Date.now() / 1000) + 3600
function setup(isGuest = true) {
  const fake = createFakeFetch(() =>
    json(200, {
      ...authResponse({ exp }),
      user: { ...wireUser(), linked_accounts: [], is_guest: isGuest },
    }),
  )
  const storage = createMemoryStorage()
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage,
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  return { client, calls: fake.calls, storage }
}

describe('guest login', () => {
  it('makes a 32-byte credential once, keeps it, and sends it', async () => {
    const { client, calls, storage } = setup()
    const { user } = await loginAsGuest(client)
    expect(user.isGuest).toBe(true)
    const sent =
      (calls[0]?.body as { guest_credential: string } | undefined)?.guest_credential ?? ''
    expect(sent).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(atob(`${sent.replace(/-/g, '+').replace(/_/g, '/')}=`)).toHaveLength(32)
    await loginAsGuest(client)
    expect((calls[1]?.body as { guest_credential: string } | undefined)?.guest_credential).toBe(
      sent,
    )
    expect(getOrCreateGuestCredential(storage, APP_ID)).toBe(sent)
    clearGuestCredential(storage, APP_ID)
    expect(getOrCreateGuestCredential(storage, APP_ID)).not.toBe(sent)
  })

  it('credentials differ between browsers', () => {
    const a = getOrCreateGuestCredential(createMemoryStorage(), APP_ID)
    const b = getOrCreateGuestCredential(createMemoryStorage(), APP_ID)
    expect(a).not.toBe(b)
  })

  it('is refused while a non-guest user is logged in (the guest flow never links)', async () => {
    const { client, calls } = setup(false)
    await loginAsGuest(client) // logs in a (non-guest) user, as a stand-in for any login
    await expect(loginAsGuest(client)).rejects.toMatchObject({ code: 'ALREADY_LOGGED_IN' })
    expect(calls).toHaveLength(1)
  })
})
