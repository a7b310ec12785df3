import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import {
  APP_ID,
  authResponse,
  createFakeFetch,
  type Handler,
  json,
  wireUser,
} from '../test/fake-server.ts'
import { createWalletsOnLogin } from './createWalletsOnLogin.ts'
import { attachEnclave } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'
import { logoutAfterCreationFailure } from './logoutAfterCreationFailure.ts'
import { refreshWallets } from './refreshWallets.ts'

// Issue 17: the wallet situations of spec 02 §4 / §8 and spec 01 §4 that core
// names: a creation answer without its wallet, a recovery method nobody here
// can run, the creation-failure logout and its event, the wallet refresh.

const ETH0 = '0x1111111111111111111111111111111111111111'
const embedded = (chain: 'ethereum' | 'solana', address: string) => ({
  type: 'wallet' as const,
  address,
  chain_type: chain,
  wallet_index: 0,
  wallet_client_type: 'latchkey' as const,
  connector_type: 'embedded' as const,
  imported: false,
  delegated: false,
  recovery_method: 'latchkey' as const,
  entropy_id: ETH0,
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
})
const withWallets = (...wallets: ReturnType<typeof embedded>[]) => {
  const base = wireUser()
  return { ...base, linked_accounts: [...base.linked_accounts, ...wallets] }
}

function setup(
  enclave: (event: string) => unknown,
  server: Handler = () => json(200, { success: true }),
) {
  const fake = createFakeFetch(server)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  attachEnclave(client, {
    origin: 'http://localhost:8787',
    request: (async (event: string) => enclave(event)) as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  return { client, calls: fake.calls }
}

describe("createWalletsOnLogin: 'Wallet data is missing'", () => {
  it('refuses an answer without a wallet on every chain it created, and keeps the user as it was', async () => {
    const { client } = setup(() => ({ user: withWallets(embedded('ethereum', ETH0)) }))
    await expect(createWalletsOnLogin(client, ['ethereum', 'solana'])).rejects.toMatchObject({
      code: 'WALLET_DATA_MISSING',
      userMessage: { title: 'Wallet data is missing' },
    })
    expect(client.session.getState().user?.linkedAccounts).toHaveLength(1)
  })
})

describe('ensureWalletReady', () => {
  it("a recovery method this client does not know is 'Unable to recover wallet' (spec 03 §4)", async () => {
    const { client } = setup(() => ({
      entropy_id: ETH0,
      status: 'needs-recovery',
      recovery_method: 'passkey-prf',
    }))
    await expect(ensureWalletReady(client, ETH0)).rejects.toMatchObject({
      code: 'UNABLE_TO_RECOVER_WALLET',
      userMessage: { title: 'Unable to recover wallet' },
    })
  })

  it('a password or cloud method without what it needs is RECOVERY_REQUIRED, for the UI to ask', async () => {
    for (const method of ['user-passcode', 'google-drive', 'icloud']) {
      const { client } = setup(() => ({
        entropy_id: ETH0,
        status: 'needs-recovery',
        recovery_method: method,
      }))
      await expect(ensureWalletReady(client, ETH0)).rejects.toMatchObject({
        code: 'RECOVERY_REQUIRED',
        details: { recovery_method: method },
      })
    }
  })
})

describe('logoutAfterCreationFailure (spec 02 §4)', () => {
  it('sends embedded_wallet_creation_failure_logout with the error and the screen, then logs out', async () => {
    const { client, calls } = setup(() => ({}))
    await logoutAfterCreationFailure(client, {
      error: 'USER_WALLET_CREATION_FAILED',
      screen: 'wallet-creation',
    })
    const event = calls.find((c) => c.url.endsWith('/api/v1/analytics_events'))
    expect(event?.body).toMatchObject({
      event_name: 'embedded_wallet_creation_failure_logout',
      payload: { error: 'USER_WALLET_CREATION_FAILED', screen: 'wallet-creation' },
    })
    expect(calls.at(-1)?.url).toMatch(/\/api\/v1\/sessions\/logout$/)
    expect(client.session.getState().status).toBe('unauthenticated')
  })
})

describe('refreshWallets (spec 01 §4)', () => {
  it("reads the user's wallets from the server and shows them in the session", async () => {
    const listener = vi.fn()
    const { client, calls } = setup(
      () => ({}),
      (call) =>
        call.url.endsWith('/api/v1/users/me')
          ? json(200, { user: withWallets(embedded('ethereum', ETH0)), identity_token: null })
          : json(404, {}),
    )
    client.session.subscribe(listener)
    const wallets = await refreshWallets(client)
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      'GET /api/v1/users/me',
    ])
    expect(wallets.map((w) => w.address)).toEqual([ETH0])
    expect(client.session.getState().user?.wallet?.address).toBe(ETH0)
    expect(listener).toHaveBeenCalled()
  })
})
