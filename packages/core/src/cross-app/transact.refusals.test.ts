import type { CrossAppRpcRequest } from '@latchkey/protocol/schemas'
import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { crossAppRpc } from './transact.ts'

// Signing through a provider app (spec 03 §7 "Cross-app", §8): what is refused
// before any popup opens, and a provider page that cannot be found.
const PROVIDER = 'e2excprovideraaaaaaaaaaaa'
const WALLET = '0x2222222222222222222222222222222222222222'
const USER_ID = 'did:latchkey:useraaaaaaaaaaaaaaaaaaaaa'
const REQUEST: CrossAppRpcRequest = { method: 'personal_sign', params: ['0x68656c6c6f', WALLET] }

function setup(options: { grant?: { read_only: boolean; expires_at?: number; user_id?: string } }) {
  // The details route of an older server that has no cross-app: a 404 (a 5xx
  // would be retried with backoff first).
  const fake = createFakeFetch(() => json(404, { code: 'NOT_FOUND', message: 'Not found' }))
  const storage = createMemoryStorage()
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage,
    cookies: { get: () => null, set() {}, remove() {} },
  })
  const base = wireUser()
  client.session.applyAuthResponse({
    ...authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }),
    user: {
      ...base,
      linked_accounts: [
        ...base.linked_accounts,
        {
          type: 'cross_app',
          subject: 'did:latchkey:provider-user',
          provider_app: { id: PROVIDER },
          embedded_wallets: [{ address: WALLET, chain_type: 'ethereum' }],
          smart_wallets: [],
          verified_at: 1_700_000_000,
          first_verified_at: 1_700_000_000,
          latest_verified_at: 1_700_000_000,
        },
      ],
    } as never,
  })
  if (options.grant)
    storage.set(
      `latchkey:cross-app-token:${APP_ID}:${PROVIDER}`,
      JSON.stringify({
        provider_app_id: PROVIDER,
        token: 'transact-token',
        read_only: options.grant.read_only,
        expires_at: options.grant.expires_at ?? Date.now() + 60_000,
        user_id: options.grant.user_id ?? USER_ID,
      }),
    )
  const popup = { closed: false, close: vi.fn(), location: { href: 'about:blank' } }
  return { client, popup }
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: LatchkeyError) => e.code,
  )

describe('crossAppRpc refusals', () => {
  it("an address that is not the connection's: 'Cannot request a signature with this wallet address'", async () => {
    const { client, popup } = setup({ grant: { read_only: false } })
    const other = `0x${'33'.repeat(20)}`
    expect(await codeOf(crossAppRpc(client, REQUEST, { address: other, popup }))).toBe(
      'CROSS_APP_ADDRESS_NOT_CONNECTED',
    )
    expect(popup.location.href).toBe('about:blank')
  })

  it.each([
    ['no token kept', undefined],
    ['an expired token', { read_only: false, expires_at: Date.now() - 1 }],
    ["another user's token", { read_only: false, user_id: 'did:latchkey:someone-else' }],
  ])("%s: 'Transactions require a valid token'", async (_name, grant) => {
    const { client, popup } = setup({ grant })
    expect(await codeOf(crossAppRpc(client, REQUEST, { address: WALLET, popup }))).toBe(
      'CROSS_APP_INVALID_TOKEN',
    )
    expect(popup.location.href).toBe('about:blank')
  })

  it("a read-only provider: 'Cannot transact against a read-only provider app'", async () => {
    const { client, popup } = setup({ grant: { read_only: true } })
    expect(await codeOf(crossAppRpc(client, REQUEST, { address: WALLET, popup }))).toBe(
      'CROSS_APP_READ_ONLY',
    )
  })

  it("the provider's page cannot be found: 'Failed to initialize signature request', the popup closed", async () => {
    const { client, popup } = setup({ grant: { read_only: false } })
    const error = await crossAppRpc(client, REQUEST, { address: WALLET, popup }).catch(
      (e: LatchkeyError) => e,
    )
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('CROSS_APP_SIGNATURE_INIT_FAILED')
    expect((error as LatchkeyError).userMessage.title).toBe(
      'Failed to initialize signature request',
    )
    expect(popup.close).toHaveBeenCalled()
    expect(popup.location.href).toBe('about:blank')
  })
})
