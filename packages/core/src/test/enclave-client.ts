import type { UserWire } from '@latchkey/protocol/schemas'
import { vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { attachEnclave } from '../wallets/enclave.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from './fake-server.ts'

// A logged-in client whose enclave is a function: what core's wallet
// operations send the enclave, and what it answers, without an iframe.

export const ETH0 = '0x1111111111111111111111111111111111111111'

export function walletWire(
  address: string,
  chain: 'ethereum' | 'solana',
  index: number | null,
  entropy = ETH0,
) {
  return {
    type: 'wallet' as const,
    address,
    chain_type: chain,
    wallet_index: index,
    wallet_client_type: 'latchkey' as const,
    connector_type: 'embedded' as const,
    imported: index === null,
    delegated: false,
    recovery_method: 'latchkey' as const,
    entropy_id: entropy,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  }
}

export function userWith(...wallets: ReturnType<typeof walletWire>[]): UserWire {
  const base = wireUser()
  return { ...base, linked_accounts: [...base.linked_accounts, ...wallets] }
}

/** A client logged in with `wallets`, its enclave answered by `handler`. */
export function setupEnclaveClient(
  handler: (event: string, data: Record<string, unknown>) => unknown,
  wallets: ReturnType<typeof walletWire>[] = [],
) {
  const fake = createFakeFetch(() => json(500, {}))
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  client.session.applyAuthResponse({
    ...authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }),
    user: userWith(...wallets),
  })
  const request = vi.fn(async (event: string, data: unknown, _options?: unknown) =>
    handler(event, data as Record<string, unknown>),
  )
  attachEnclave(client, {
    origin: 'http://localhost:8787',
    request: request as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  return { client, request }
}
