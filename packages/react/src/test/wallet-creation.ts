import { attachEnclave, createLatchkeyClient, createMemoryStorage } from '@latchkey/core'
import { vi } from 'vitest'

// The post-login wallet step's tests (WalletCreationScreen*.test.tsx): a
// logged-in user without wallets, a stub enclave, and every server call kept.

export const APP_ID = 'testappaaaaaaaaaaaaaaaaaa'
export const ETH0 = '0x1111111111111111111111111111111111111111'
export const SOL0 = 'So1ana1111111111111111111111111111111111111'

function jwt(claims: object) {
  const b64 = (v: object) =>
    btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
  return `${b64({ alg: 'ES256' })}.${b64(claims)}.sig`
}

const walletWire = (chain: 'ethereum' | 'solana') => ({
  type: 'wallet' as const,
  address: chain === 'ethereum' ? ETH0 : SOL0,
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

/** The user, with index-0 wallets on `chains` (true: Ethereum only; false: none). */
export const userWire = (chains: boolean | Array<'ethereum' | 'solana'>) => ({
  id: 'did:latchkey:u',
  created_at: 1,
  mfa_methods: [],
  has_accepted_terms: false,
  is_guest: false,
  linked_accounts: (chains === true ? ['ethereum' as const] : chains || []).map(walletWire),
})

/** A server call: its URL and JSON body. */
export interface SentCall {
  url: string
  body: unknown
}

/** A client logged in as a user without wallets, its enclave answered by `enclave`. */
export function setupWalletCreation(enclave: (event: string, data?: unknown) => Promise<unknown>) {
  const calls: string[] = []
  const sent: SentCall[] = []
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push(String(url))
    sent.push({
      url: String(url),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    })
    return new Response('{"success":true}', {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
  }) as unknown as typeof globalThis.fetch
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  client.session.applyAuthResponse({
    user: userWire(false),
    is_new_user: true,
    token: jwt({ aud: APP_ID, exp: Math.floor(Date.now() / 1000) + 3600 }),
    refresh_token: 'r',
    identity_token: null,
    session_update_action: 'set',
  })
  attachEnclave(client, {
    origin: 'http://localhost:8787',
    request: ((event: string, data: unknown) => enclave(event, data)) as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  return { client, calls, sent }
}
