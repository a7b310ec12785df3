import { attachEnclave } from '@latchkey/core'
import { act, cleanup, renderHook, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyConfig } from '../config.ts'
import { useLatchkeyInstance } from '../context.ts'
import { LatchkeyProvider } from '../LatchkeyProvider.tsx'
import { API_URL, APP_ID } from '../test/fake-server.ts'
import { type IdentityCall, stubIdentityServer } from '../test/identity-server.ts'
import { useGuestAccount } from './useGuestAccount.ts'
import { useLatchkey } from './useLatchkey.ts'

let calls: IdentityCall[]
beforeAll(async () => {
  // The wallet step is a modal screen: its chunk loads up front (docs/testing.md).
  await import('../modal/chunk.ts')
})
beforeEach(() => {
  localStorage.clear()
  calls = stubIdentityServer().calls
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const wrapperWith =
  (config?: LatchkeyConfig) =>
  ({ children }: { children: ReactNode }) => (
    <LatchkeyProvider appId={APP_ID} apiUrl={API_URL} config={config}>
      {children}
    </LatchkeyProvider>
  )
const wrapper = wrapperWith()

const ADDRESSES = {
  ethereum: '0x1111111111111111111111111111111111111111',
  solana: 'So1ana1111111111111111111111111111111111111',
}
/** The guest as the enclave answers a wallet creation: with an index-0 wallet per chain. */
const guestWithWallets = (chains: Array<'ethereum' | 'solana'>) => ({
  id: 'did:latchkey:user1',
  created_at: 1,
  mfa_methods: [],
  has_accepted_terms: false,
  is_guest: true,
  linked_accounts: chains.map((chain) => ({
    type: 'wallet',
    address: ADDRESSES[chain],
    chain_type: chain,
    wallet_index: 0,
    wallet_client_type: 'latchkey',
    connector_type: 'embedded',
    imported: false,
    delegated: false,
    recovery_method: 'latchkey',
    entropy_id: ADDRESSES.ethereum,
    verified_at: 1,
    first_verified_at: 1,
    latest_verified_at: 1,
  })),
})

function renderGuest(config?: LatchkeyConfig) {
  // The enclave answers once the test lets it: the wallet step can be seen under way.
  let answer!: () => void
  const answered = new Promise<void>((resolve) => {
    answer = resolve
  })
  const enclave = vi.fn(async (_event: string, data: Record<string, unknown>) => {
    await answered
    return { user: guestWithWallets(data.chain_types as Array<'ethereum' | 'solana'>) }
  })
  const rendered = renderHook(
    () => ({ guest: useGuestAccount(), session: useLatchkey(), instance: useLatchkeyInstance() }),
    { wrapper: wrapperWith(config) },
  )
  attachEnclave(rendered.result.current.instance.client, {
    origin: API_URL,
    request: enclave as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  return { ...rendered, enclave, answer }
}

describe('useGuestAccount', () => {
  it('logs in a guest', async () => {
    const { result } = renderHook(() => ({ guest: useGuestAccount(), session: useLatchkey() }), {
      wrapper,
    })
    await waitFor(() => expect(result.current.session.ready).toBe(true))
    await act(async () => {
      await result.current.guest.createGuestAccount()
    })
    expect(result.current.session.user?.isGuest).toBe(true)
    const body = calls.find((c) => c.path === '/api/v1/guest/authenticate')?.body as {
      guest_credential: string
    }
    expect(body.guest_credential).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(localStorage.getItem(`latchkey:guest_credential:${APP_ID}`)).toBe(body.guest_credential)
  })

  it.each(['all-users', 'users-without-wallets'] as const)(
    "creates the guest's wallets on login in the modal with createOnLogin '%s' (spec 02: a guest is an authenticated user)",
    async (setting) => {
      const { result, enclave, answer } = renderGuest({
        embeddedWallets: { createOnLogin: { ethereum: setting, solana: setting } },
      })
      await waitFor(() => expect(result.current.session.ready).toBe(true))
      await act(async () => {
        await result.current.guest.createGuestAccount()
      })
      expect(await screen.findByText('Setting up your wallet')).toBeTruthy()
      answer()
      expect(await screen.findByText('Welcome to Test App')).toBeTruthy()
      expect(enclave).toHaveBeenCalledWith(
        'latchkey:wallets:create',
        expect.objectContaining({
          chain_types: ['ethereum', 'solana'],
          recovery: { method: 'latchkey' },
        }),
        expect.anything(),
      )
      expect(result.current.session.user).toMatchObject({
        isGuest: true,
        wallet: { address: ADDRESSES.ethereum },
      })
    },
  )

  it("creates nothing with createOnLogin 'off'", async () => {
    const { result, enclave } = renderGuest()
    await waitFor(() => expect(result.current.session.ready).toBe(true))
    await act(async () => {
      await result.current.guest.createGuestAccount()
    })
    await waitFor(() => expect(calls.some((c) => c.path === `/api/v1/apps/${APP_ID}`)).toBe(true))
    expect(result.current.instance.getUiState().open).toBe(false)
    expect(enclave).not.toHaveBeenCalled()
  })
})
