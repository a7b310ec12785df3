import { attachEnclave, createLatchkeyClient, createMemoryStorage } from '@latchkey/core'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import { LatchkeyContext } from '../context.ts'
import { ModalHost } from '../modal/lazy.tsx'
import { createLatchkeyInstance } from '../store.ts'
import { APP_ID, accessToken } from './fake-server.ts'

export const ETH_ADDRESS = '0x1111111111111111111111111111111111111111'
export const SOL_ADDRESS = 'So1ana1111111111111111111111111111111111111'

const walletWire = (chainType: 'ethereum' | 'solana', address: string) => ({
  type: 'wallet' as const,
  address,
  chain_type: chainType,
  wallet_index: 0,
  wallet_client_type: 'latchkey' as const,
  connector_type: 'embedded' as const,
  imported: false,
  delegated: false,
  recovery_method: 'latchkey' as const,
  entropy_id: ETH_ADDRESS,
  verified_at: 1,
  first_verified_at: 1,
  latest_verified_at: 1,
})

export interface WalletTestOptions {
  /** Log a user in (default true). */
  authenticated?: boolean
  /** Which embedded wallets the user has (default both). */
  chains?: Array<'ethereum' | 'solana'>
  /** Answers `latchkey:wallets:rpc` (default: a fixed signature). */
  rpc?: (data: { chain_type: string; request: { method: string; params: unknown } }) => unknown
}

/**
 * Renders `ui` under a provider instance whose user has embedded wallets and
 * whose enclave is a stub: connect answers "ready", rpc answers `rpc(data)`.
 */
export function renderWithWallets(ui: ReactNode, options: WalletTestOptions = {}) {
  const fetch = vi.fn(
    async () =>
      new Response('{"success":true}', { headers: { 'content-type': 'application/json' } }),
  ) as unknown as typeof globalThis.fetch
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://latchkey.test',
    fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  if (options.authenticated !== false)
    client.session.applyAuthResponse({
      user: {
        id: 'did:latchkey:user1',
        created_at: 1,
        mfa_methods: [],
        has_accepted_terms: false,
        is_guest: false,
        linked_accounts: (options.chains ?? ['ethereum', 'solana']).map((chain) =>
          walletWire(chain, chain === 'ethereum' ? ETH_ADDRESS : SOL_ADDRESS),
        ),
      },
      is_new_user: false,
      token: accessToken(Math.floor(Date.now() / 1000) + 3600),
      refresh_token: 'r',
      identity_token: null,
      session_update_action: 'set',
    })
  const rpc = vi.fn(options.rpc ?? (() => ({ result: '0xsignature' })))
  attachEnclave(client, {
    origin: 'http://latchkey.test',
    request: (async (event: string, data: never) =>
      event === 'latchkey:wallets:connect'
        ? { entropy_id: ETH_ADDRESS, status: 'ready', recovery_method: 'latchkey' }
        : rpc(data)) as never,
    destroy() {},
  })
  const instance = createLatchkeyInstance(client, {})
  const result = render(
    <LatchkeyContext.Provider value={instance}>
      {ui}
      <ModalHost instance={instance} preload={false} />
    </LatchkeyContext.Provider>,
  )
  return { ...result, instance, client, rpc }
}
