import { LatchkeyError } from '@latchkey/core'
import type { ConnectedExternalWallet } from '@latchkey/core/external'
import { MODAL_OPEN_DELAY_MS, SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { useLatchkeyInstance } from '../context.ts'
import type { LatchkeyInstance } from '../store.ts'
import { renderWithProvider } from '../test/render.tsx'
import { useConnectWallet } from './useConnectWallet.ts'
import { useLatchkey } from './useLatchkey.ts'

// The connect-only wallet modal (spec 01 "Connect-only wallet screen"):
// `connectWallet()` opens the wallet list without logging in; it resolves
// with the connected wallet and rejects with WALLET_USER_REJECTED when the
// modal is closed first.

const ADDRESS = '0x1111111111111111111111111111111111111111'

let instance: LatchkeyInstance
let pending: Promise<ConnectedExternalWallet>[]

function Host({ walletChainType }: { walletChainType?: 'solana-only' }) {
  instance = useLatchkeyInstance()
  const { ready, login } = useLatchkey()
  const { connectWallet } = useConnectWallet()
  if (!ready) return null
  return (
    <>
      <button
        type="button"
        onClick={() => {
          const promise = connectWallet(walletChainType ? { walletChainType } : undefined)
          // Settled later by the test; never left unhandled.
          promise.catch(() => undefined)
          pending.push(promise)
        }}
      >
        Connect wallet
      </button>
      <button type="button" onClick={() => login()}>
        Log in
      </button>
    </>
  )
}

/** An EIP-6963 wallet in the page: announces itself and grants one account on chain 1. */
function announceWallet() {
  const provider = {
    request: vi.fn(async ({ method }: { method: string }) => {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [ADDRESS]
      if (method === 'eth_chainId') return '0x1'
      throw Object.assign(new Error(`Unsupported ${method}`), { code: 4200 })
    }),
    on: vi.fn(),
    removeListener: vi.fn(),
  }
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: {
          info: { uuid: 'test-wallet-uuid', name: 'Test Wallet', icon: '', rdns: 'test.wallet' },
          provider,
        },
      }),
    )
  window.addEventListener('eip6963:requestProvider', announce)
  return { provider, stop: () => window.removeEventListener('eip6963:requestProvider', announce) }
}

/** Clicks 'Connect wallet'; returns the call's promise (wrapped, so awaiting this does not await it). */
async function openConnect() {
  fireEvent.click(await screen.findByRole('button', { name: 'Connect wallet' }))
  await screen.findByRole('dialog')
  return { promise: pending[pending.length - 1] as Promise<ConnectedExternalWallet> }
}

const rejectionOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LatchkeyError)
  return error as LatchkeyError
}

// What the provider loads lazily on first use (the modal's chunk, the wallet screens, the
// wallet code: viem, connectors), loaded once up front: the tests then wait on promises only.
beforeAll(async () => {
  await Promise.all([
    import('../modal/chunk.ts'),
    import('../modal/methods/wallet/WalletLogin.tsx'),
    import('@latchkey/core/external'),
    import('../external-wallets-manager.ts'),
  ])
})
beforeEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  pending = []
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('useConnectWallet', () => {
  it("opens the modal on the wallet list ('Connect a wallet'), without logging in", async () => {
    const { server } = renderWithProvider(<Host />)
    await openConnect()
    await screen.findByRole('heading', { name: 'Connect a wallet' })
    // The default list without detected wallets: MetaMask, Coinbase Wallet, Rainbow.
    expect(await screen.findByRole('button', { name: 'MetaMask' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Coinbase Wallet' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Rainbow' })).toBeTruthy()
    // No login screens, no way back to them.
    expect(screen.queryByRole('textbox', { name: 'Email address' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    expect(instance.getUiState().loginOptions).toMatchObject({
      connectOnly: true,
      method: 'wallet',
    })
    expect(server.calls.some((c) => c.path.includes('authenticate'))).toBe(false)
  })

  it('passes walletChainType to the list', async () => {
    renderWithProvider(<Host walletChainType="solana-only" />)
    await openConnect()
    await screen.findByText('No wallets found.')
    expect(instance.getUiState().loginOptions.walletChainType).toBe('solana-only')
  })

  it('closing the modal rejects with WALLET_USER_REJECTED', async () => {
    renderWithProvider(<Host />)
    const { promise } = await openConnect()
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }))
    const error = await rejectionOf(promise)
    expect(error.code).toBe('WALLET_USER_REJECTED')
    expect(error.message).toBe('You rejected the request')
    await waitFor(() => expect(instance.getUiState().open).toBe(false))
  })

  it('completeConnectWallet resolves it with the wallet; a later close changes nothing', async () => {
    renderWithProvider(<Host />)
    const { promise } = await openConnect()
    const wallet = { type: 'ethereum', address: ADDRESS } as ConnectedExternalWallet
    act(() => instance.completeConnectWallet(wallet))
    await expect(promise).resolves.toBe(wallet)
    act(() => instance.closeModal())
    expect(instance.getUiState().open).toBe(false)
  })

  it('a second connectWallet(), or login(), rejects the pending one', async () => {
    renderWithProvider(<Host />)
    const { promise: first } = await openConnect()
    const { promise: second } = await openConnect()
    expect((await rejectionOf(first)).code).toBe('WALLET_USER_REJECTED')

    fireEvent.click(screen.getByRole('button', { name: 'Log in', hidden: true }))
    expect((await rejectionOf(second)).code).toBe('WALLET_USER_REJECTED')
    await screen.findByRole('heading', { name: 'Log in or sign up' })
  })

  it('connecting a detected wallet resolves with it and closes the modal after 1.4 s', async () => {
    vi.useFakeTimers()
    const wallet = announceWallet()
    try {
      const { server } = renderWithProvider(<Host />)
      await elapse()
      fireEvent.click(screen.getByRole('button', { name: 'Connect wallet' }))
      await elapse(MODAL_OPEN_DELAY_MS)
      const promise = pending[0] as Promise<ConnectedExternalWallet>
      let settled = false
      void promise.then(() => (settled = true))
      fireEvent.click(screen.getByRole('button', { name: 'Test Wallet' }))
      await elapse()
      screen.getByRole('heading', { name: 'Successfully connected with Test Wallet' })
      expect(wallet.provider.request).toHaveBeenCalledWith({ method: 'eth_requestAccounts' })

      await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
      expect(settled).toBe(false)
      expect(instance.getUiState().open).toBe(true)
      await elapse(1)
      expect(settled).toBe(true)
      expect(instance.getUiState().open).toBe(false)
      const connected = await promise
      expect(connected).toMatchObject({
        type: 'ethereum',
        address: ADDRESS,
        chainId: 'eip155:1',
        // 'Test Wallet' normalised: a trailing ' wallet' dropped.
        walletClientType: 'test',
        connectorType: 'injected',
      })
      // Connected, not logged in: no sign-in message was asked for or sent.
      expect(wallet.provider.request).not.toHaveBeenCalledWith(
        expect.objectContaining({ method: 'personal_sign' }),
      )
      expect(server.calls.some((c) => c.path.includes('siwe'))).toBe(false)
      expect(instance.client.session.getState().status).toBe('unauthenticated')
      expect(instance.externalWallets.getState()?.wallets).toEqual([connected])
    } finally {
      wallet.stop()
    }
  })
})
