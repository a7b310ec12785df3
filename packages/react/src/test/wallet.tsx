import { attachEnclave, createLatchkeyClient, createMemoryStorage } from '@latchkey/core'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import { LatchkeyContext } from '../context.ts'
import { ModalHost } from '../modal/lazy.tsx'
import { createLatchkeyInstance } from '../store.ts'
import { APP_ID, accessToken, appConfig } from './fake-server.ts'

export const ETH_ADDRESS = '0x1111111111111111111111111111111111111111'
export const SOL_ADDRESS = 'So1ana1111111111111111111111111111111111111'

const walletWire = (
  chainType: 'ethereum' | 'solana',
  address: string,
  recovery: 'latchkey' | 'user-passcode' = 'latchkey',
) => ({
  type: 'wallet' as const,
  address,
  chain_type: chainType,
  wallet_index: 0,
  wallet_client_type: 'latchkey' as const,
  connector_type: 'embedded' as const,
  imported: false,
  delegated: false,
  recovery_method: recovery,
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
  /**
   * Answers any enclave event first (throw to fail it); `undefined` falls
   * through to the defaults: connect "ready", set-recovery the user with a
   * password, rpc `rpc(data)`.
   */
  enclave?: (event: string, data: Record<string, unknown>) => unknown
}

/**
 * Renders `ui` under a provider instance whose user has embedded wallets and
 * whose enclave is a stub: connect answers "ready", rpc answers `rpc(data)`.
 */
export function renderWithWallets(ui: ReactNode, options: WalletTestOptions = {}) {
  const fetch = vi.fn(async (url: string) => {
    const body = String(url).endsWith(`/api/v1/apps/${APP_ID}`) ? appConfig() : { success: true }
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
  }) as unknown as typeof globalThis.fetch
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://latchkey.test',
    fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  const userWire = (recovery: 'latchkey' | 'user-passcode') => ({
    id: 'did:latchkey:user1',
    created_at: 1,
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
    linked_accounts: (options.chains ?? ['ethereum', 'solana']).map((chain) =>
      walletWire(chain, chain === 'ethereum' ? ETH_ADDRESS : SOL_ADDRESS, recovery),
    ),
  })
  if (options.authenticated !== false)
    client.session.applyAuthResponse({
      user: userWire('latchkey'),
      is_new_user: false,
      token: accessToken(Math.floor(Date.now() / 1000) + 3600),
      refresh_token: 'r',
      identity_token: null,
      session_update_action: 'set',
    })
  const rpc = vi.fn(options.rpc ?? (() => ({ result: '0xsignature' })))
  const enclave = vi.fn(async (event: string, data: Record<string, unknown>) => {
    const answer = await options.enclave?.(event, data)
    if (answer !== undefined) return answer
    if (event === 'latchkey:wallets:connect')
      return { entropy_id: ETH_ADDRESS, status: 'ready', recovery_method: 'latchkey' }
    if (event === 'latchkey:wallets:set-recovery') return { user: userWire('user-passcode') }
    return rpc(data as never)
  })
  attachEnclave(client, {
    origin: 'http://latchkey.test',
    request: enclave as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  const instance = createLatchkeyInstance(client, {})
  const result = render(
    <LatchkeyContext.Provider value={instance}>
      {ui}
      <ModalHost instance={instance} preload={false} />
    </LatchkeyContext.Provider>,
  )
  return { ...result, instance, client, rpc, enclave }
}
