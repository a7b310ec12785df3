import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { loginAsGuest } from './guest.ts'
import { unlinkWallet } from './wallet.ts'

const exp = Math.floor(Date.now() / 1000) + 3600

function setup() {
  const fake = createFakeFetch((call) => {
    if (call.url.endsWith(routes.guestAuthenticate)) return json(200, authResponse({ exp }))
    return json(200, { ...wireUser(), linked_accounts: [] })
  })
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  return { client, calls: fake.calls }
}

describe('unlinkWallet', () => {
  it('posts the address to the SIWE or SIWS unlink route as the user and stores the new user', async () => {
    const { client, calls } = setup()
    await loginAsGuest(client)
    const address = '0x1111111111111111111111111111111111111111'
    const user = await unlinkWallet(client, { address, chainType: 'ethereum' })
    await unlinkWallet(client, {
      address: 'So11111111111111111111111111111111111111112',
      chainType: 'solana',
    })
    const [eth, sol] = calls.filter((c) => c.url.includes('unlink'))
    expect(eth?.url).toBe(`http://api.test${routes.siweUnlink}`)
    expect(eth?.body).toEqual({ address })
    expect(eth?.headers.authorization).toMatch(/^Bearer /)
    expect(sol?.url).toBe(`http://api.test${routes.siwsUnlink}`)
    expect(user.linkedAccounts).toEqual([])
    expect(client.session.getState().user?.linkedAccounts).toEqual([])
  })

  it('refuses without a session', async () => {
    const { client } = setup()
    await expect(
      unlinkWallet(client, {
        address: '0x1111111111111111111111111111111111111111',
        chainType: 'ethereum',
      }),
    ).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' })
  })
})
