import { LatchkeyError, type User } from '@latchkey/core'
import { MODAL_OPEN_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ETH_ADDRESS, renderWithWallets, SOL_ADDRESS } from '../test/wallet.tsx'
import { useDelegatedActions } from './useDelegatedActions.ts'

// useDelegatedActions (spec 03 §2, §4, §5, §8 "Delegation") through the real
// modal with a stub enclave: the address check before any screen, the
// consent and revoke screens, the spec's decline errors, 2.5 s closes.

// The modal's lazy chunks, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(async () => {
  await import('../modal/chunk.ts')
  await import('../modal/delegated-actions/DelegatedActionsScreen.tsx')
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const click = (name: string) => act(async () => screen.getByRole('button', { name }).click())

type Hooks = ReturnType<typeof useDelegatedActions>
function Probe({ hooks }: { hooks: Partial<Hooks> }) {
  Object.assign(hooks, useDelegatedActions())
  return null
}

/** The user as the server answers it, with `delegated` set on the wallets at `addresses`. */
function userWire(addresses: string[]) {
  return {
    id: 'did:latchkey:user1',
    created_at: 1,
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
    linked_accounts: [
      [ETH_ADDRESS, 'ethereum'],
      [SOL_ADDRESS, 'solana'],
    ].map(([address, chain]) => ({
      type: 'wallet' as const,
      address: address as string,
      chain_type: chain as 'ethereum' | 'solana',
      wallet_index: 0,
      wallet_client_type: 'latchkey' as const,
      connector_type: 'embedded' as const,
      imported: false,
      delegated: addresses.includes(address as string),
      recovery_method: 'latchkey' as const,
      entropy_id: ETH_ADDRESS,
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    })),
  }
}

function setup(
  delegate: (data: Record<string, unknown>) => unknown = (data) => ({
    user: userWire([data.address as string]),
  }),
) {
  const hooks: Partial<Hooks> = {}
  const rendered = renderWithWallets(<Probe hooks={hooks} />, {
    enclave: (event, data) => (event === 'latchkey:delegate' ? delegate(data) : undefined),
  })
  const delegations = () => rendered.enclave.mock.calls.filter(([e]) => e === 'latchkey:delegate')
  return { hooks: hooks as Hooks, delegations, ...rendered }
}

const delegatedOf = (user: User, address: string) =>
  user.linkedAccounts.find((a) => a.type === 'wallet' && a.address === address)

describe('delegateWallet', () => {
  it("an address that is not the user's: spec 03 §5's message before any screen", async () => {
    const { hooks, instance, enclave } = setup()
    const error = await hooks
      .delegateWallet({ address: `0x${'22'.repeat(20)}`, chainType: 'ethereum' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).message).toBe(
      'Address to delegate is not associated with current user.',
    )
    expect(instance.getUiState().open).toBe(false)
    expect(enclave).not.toHaveBeenCalled()
  })

  it("consent → Accept → 'Success!' → closes after 2.5 s and resolves with the wallet delegated", async () => {
    vi.useFakeTimers()
    const { hooks, instance, client, delegations } = setup()
    const result = hooks.delegateWallet({ address: ETH_ADDRESS, chainType: 'ethereum' })
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Enable offline access' })
    expect(delegations()).toEqual([])
    await click('Accept')
    expect(delegations()).toHaveLength(1)
    expect(delegations()[0]?.[1]).toMatchObject({ address: ETH_ADDRESS, chain_type: 'ethereum' })
    screen.getByRole('heading', { name: 'Success!' })
    await elapse(2_499)
    expect(instance.getUiState().open).toBe(true)
    await elapse(1)
    expect(instance.getUiState().open).toBe(false)
    const user = await result
    expect(delegatedOf(user, ETH_ADDRESS)).toMatchObject({ delegated: true })
    expect(client.session.getState().user).toBe(user)
  })

  it("'Not now' rejects with 'User declined delegating actions.' and delegates nothing", async () => {
    vi.useFakeTimers()
    const { hooks, delegations } = setup()
    const result = hooks
      .delegateWallet({ address: SOL_ADDRESS, chainType: 'solana' })
      .catch((e: LatchkeyError) => e)
    await elapse(MODAL_OPEN_DELAY_MS)
    await click('Not now')
    const error = (await result) as LatchkeyError
    expect(error.code).toBe('DELEGATION_DECLINED')
    expect(error.message).toBe('User declined delegating actions.')
    expect(delegations()).toEqual([])
  })

  it('closing the consent screen is the same decline', async () => {
    vi.useFakeTimers()
    const { hooks } = setup()
    const result = hooks
      .delegateWallet({ address: ETH_ADDRESS, chainType: 'ethereum' })
      .catch((e: LatchkeyError) => e)
    await elapse(MODAL_OPEN_DELAY_MS)
    await click('Close')
    expect(((await result) as LatchkeyError).code).toBe('DELEGATION_DECLINED')
  })

  it('closed while the delegation runs: settles with its outcome, not as a decline', async () => {
    vi.useFakeTimers()
    let answer!: (value: unknown) => void
    const { hooks } = setup(() => new Promise((resolve) => (answer = resolve)))
    const result = hooks.delegateWallet({ address: ETH_ADDRESS, chainType: 'ethereum' })
    await elapse(MODAL_OPEN_DELAY_MS)
    await click('Accept')
    await click('Close')
    await act(async () => answer({ user: userWire([ETH_ADDRESS]) }))
    expect(delegatedOf(await result, ETH_ADDRESS)).toMatchObject({ delegated: true })
  })

  it("a failure: 'Something went wrong. Please try again.', then the hook rejects with it", async () => {
    vi.useFakeTimers()
    const { hooks, instance } = setup(() => {
      throw new LatchkeyError('DELEGATION_SHARE_INVALID')
    })
    const result = hooks
      .delegateWallet({ address: ETH_ADDRESS, chainType: 'ethereum' })
      .catch((e: LatchkeyError) => e)
    await elapse(MODAL_OPEN_DELAY_MS)
    await click('Accept')
    screen.getByRole('heading', { name: 'Something went wrong. Please try again.' })
    await elapse(2_500)
    expect(instance.getUiState().open).toBe(false)
    expect(((await result) as LatchkeyError).code).toBe('DELEGATION_SHARE_INVALID')
  })

  it('showDelegationUIs: false delegates without a screen', async () => {
    const { hooks, instance, delegations } = setup()
    const user = await hooks.delegateWallet({
      address: ETH_ADDRESS,
      chainType: 'ethereum',
      showDelegationUIs: false,
    })
    expect(instance.getUiState().open).toBe(false)
    expect(delegations()).toHaveLength(1)
    expect(delegatedOf(user, ETH_ADDRESS)).toMatchObject({ delegated: true })
  })
})

describe('revokeWallets', () => {
  /** The revoke route's answers (the stub server answers `{ success: true }` otherwise). */
  function stubRevoke(client: ReturnType<typeof setup>['client']) {
    const original = client.http.request.bind(client.http)
    return vi.spyOn(client.http, 'request').mockImplementation(async (path, init) => {
      if (path === '/api/v1/embedded_wallets/revoke') return { user: userWire([]) } as never
      return original(path, init)
    })
  }

  it("'Revoke offline access to wallet' → Confirm → an empty POST → 'Success!' → closes after 2.5 s", async () => {
    vi.useFakeTimers()
    const { hooks, instance, client } = setup()
    const request = stubRevoke(client)
    const result = hooks.revokeWallets()
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Revoke offline access to wallet' })
    await click('Confirm')
    const revokes = request.mock.calls.filter(([path]) => path.endsWith('/revoke'))
    expect(revokes).toHaveLength(1)
    expect(revokes[0]?.[1]).toMatchObject({ method: 'POST' })
    expect(revokes[0]?.[1]?.body).toBeUndefined()
    screen.getByRole('heading', { name: 'Success!' })
    await elapse(2_500)
    expect(instance.getUiState().open).toBe(false)
    const user = await result
    expect(delegatedOf(user, ETH_ADDRESS)).toMatchObject({ delegated: false })
  })

  it("'Deny' rejects with 'User declined revoking access to their delegated wallet.'", async () => {
    vi.useFakeTimers()
    const { hooks, client } = setup()
    const request = stubRevoke(client)
    const result = hooks.revokeWallets().catch((e: LatchkeyError) => e)
    await elapse(MODAL_OPEN_DELAY_MS)
    await click('Deny')
    const error = (await result) as LatchkeyError
    expect(error.code).toBe('DELEGATION_REVOKE_DECLINED')
    expect(error.message).toBe('User declined revoking access to their delegated wallet.')
    expect(request.mock.calls.filter(([path]) => path.endsWith('/revoke'))).toEqual([])
  })

  it('logged out: NOT_AUTHENTICATED, no screen', async () => {
    const hooks: Partial<Hooks> = {}
    const { instance } = renderWithWallets(<Probe hooks={hooks} />, { authenticated: false })
    await expect((hooks as Hooks).revokeWallets()).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    })
    expect(instance.getUiState().open).toBe(false)
  })
})
