import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { walletWire } from '../test/enclave-client.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { loginAsGuest } from './guest.ts'
import { unlinkWallet } from './wallet.ts'

// Spec 03 §2 / §8: an embedded Solana wallet is never unlinked; the client
// says so before asking the server ('Cannot unlink an embedded Solana wallet').

const exp = Math.floor(Date.now() / 1000) + 3600
const SOL_EMBEDDED = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const SOL_EXTERNAL = 'So11111111111111111111111111111111111111112'

async function loggedInWithEmbeddedSolana() {
  const base = wireUser()
  const user = {
    ...base,
    linked_accounts: [...base.linked_accounts, walletWire(SOL_EMBEDDED, 'solana', 0)],
  }
  const fake = createFakeFetch((call) => {
    if (call.url.endsWith(routes.guestAuthenticate))
      return json(200, { ...authResponse({ exp }), user })
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
  await loginAsGuest(client)
  return { client, calls: fake.calls }
}

describe('unlinkWallet and embedded Solana wallets', () => {
  it("refuses one of the user's embedded Solana wallets before any request", async () => {
    const { client, calls } = await loggedInWithEmbeddedSolana()
    const before = calls.length
    await expect(
      unlinkWallet(client, { address: SOL_EMBEDDED, chainType: 'solana' }),
    ).rejects.toMatchObject({
      code: 'EMBEDDED_SOLANA_WALLET_UNLINK',
      message: 'Cannot unlink an embedded Solana wallet',
    })
    expect(calls.length).toBe(before)
    expect(client.session.getState().user?.linkedAccounts).toHaveLength(2)
  })

  it('still posts an external Solana address to the SIWS unlink route', async () => {
    const { client, calls } = await loggedInWithEmbeddedSolana()
    await unlinkWallet(client, { address: SOL_EXTERNAL, chainType: 'solana' })
    expect(calls.at(-1)?.url).toBe(`http://api.test${routes.siwsUnlink}`)
    expect(calls.at(-1)?.body).toEqual({ address: SOL_EXTERNAL })
  })
})
