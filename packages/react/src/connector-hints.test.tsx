import { MODAL_OPEN_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { takeConnectorHints, withConnectorHints } from './connector-hints.ts'
import { useLatchkeyInstance } from './context.ts'
import type { LatchkeyInstance } from './store.ts'
import { renderWithProvider } from './test/render.tsx'

// Connector hints (spec 01 §2): latchkey_connector, latchkey_wallet_client
// and latchkey_connect_only are read when the provider starts and removed
// from the address; the flow they name resumes on the hinted wallet.

const ADDRESS = '0x1111111111111111111111111111111111111111'

describe('takeConnectorHints', () => {
  it('reads the three hints and removes them, keeping the rest of the address', () => {
    const replaceUrl = vi.fn()
    const hints = takeConnectorHints({
      url: 'https://app.test/shop?latchkey_connector=injected&latchkey_wallet_client=metamask&latchkey_connect_only=true&item=7#top',
      replaceUrl,
    })
    expect(hints).toEqual({ connector: 'injected', walletClient: 'metamask', connectOnly: true })
    expect(replaceUrl).toHaveBeenCalledWith('https://app.test/shop?item=7#top')
  })

  it('is null, and leaves the address alone, without hints', () => {
    const replaceUrl = vi.fn()
    expect(takeConnectorHints({ url: 'https://app.test/?item=7', replaceUrl })).toBeNull()
    expect(replaceUrl).not.toHaveBeenCalled()
  })

  it('reads back what withConnectorHints wrote; an unknown connector type is dropped', () => {
    const url = withConnectorHints('https://app.test/?item=7', {
      connector: 'wallet_connect_v2',
      walletClient: 'rainbow',
      connectOnly: false,
    })
    expect(takeConnectorHints({ url, replaceUrl: () => undefined })).toEqual({
      connector: 'wallet_connect_v2',
      walletClient: 'rainbow',
      connectOnly: false,
    })
    expect(
      takeConnectorHints({
        url: 'https://app.test/?latchkey_connector=bogus',
        replaceUrl: vi.fn(),
      }),
    ).toEqual({ connector: null, walletClient: null, connectOnly: false })
  })
})

let instance: LatchkeyInstance
function Host() {
  instance = useLatchkeyInstance()
  return null
}

/**
 * An EIP-6963 wallet ('Test Wallet', slug 'test') that grants one account
 * on chain 1, or (`pending`) leaves the connection request unanswered.
 */
function announceWallet() {
  const state = { pending: false }
  const provider = {
    request: vi.fn(async ({ method }: { method: string }) => {
      if (method === 'eth_requestAccounts' && state.pending) return new Promise(() => undefined)
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
  return {
    provider,
    state,
    stop: () => window.removeEventListener('eip6963:requestProvider', announce),
  }
}

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('connector hints at the provider start', () => {
  beforeAll(async () => {
    // Loaded once up front, so the tests wait on promises only.
    await Promise.all([
      import('./modal/chunk.ts'),
      import('./connector-hints.ts'),
      import('./modal/methods/wallet/WalletLogin.tsx'),
      import('@latchkey/core/external'),
      import('./external-wallets-manager.ts'),
    ])
  })
  let wallet: ReturnType<typeof announceWallet>
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    vi.useFakeTimers()
    wallet = announceWallet()
  })
  afterEach(() => {
    wallet.stop()
    cleanup()
    history.replaceState(null, '', '/')
    vi.useRealTimers()
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('latchkey_connect_only opens the connect-only flow straight on the hinted wallet', async () => {
    history.replaceState(
      null,
      '',
      '/?latchkey_connector=injected&latchkey_wallet_client=test&latchkey_connect_only=true&item=7',
    )
    const { server } = renderWithProvider(<Host />)
    await elapse()
    // Removed at start (once the hints' code has loaded).
    expect(location.search).toBe('?item=7')
    await elapse(MODAL_OPEN_DELAY_MS)
    await elapse()
    screen.getByRole('heading', { name: 'Successfully connected with Test Wallet' })
    expect(wallet.provider.request).toHaveBeenCalledWith({ method: 'eth_requestAccounts' })
    expect(instance.getUiState().loginOptions).toMatchObject({
      connectOnly: true,
      method: 'wallet',
      wallet: 'test',
    })
    expect(server.calls.some((c) => c.path.includes('authenticate'))).toBe(false)
  })

  it("without connect-only, the login modal opens on the hinted wallet's connection", async () => {
    history.replaceState(null, '', '/?latchkey_connector=injected&latchkey_wallet_client=test')
    wallet.state.pending = true
    renderWithProvider(<Host />)
    await elapse()
    expect(location.search).toBe('')
    await elapse(MODAL_OPEN_DELAY_MS)
    await elapse()
    expect(wallet.provider.request).toHaveBeenCalledWith({ method: 'eth_requestAccounts' })
    expect(instance.getUiState().loginOptions).toEqual({ method: 'wallet', wallet: 'test' })
    // On the wallet's connection, not the list or the landing screen.
    screen.getByRole('heading', { name: 'Waiting for Test Wallet' })
    expect(screen.queryByRole('heading', { name: 'Log in or sign up' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Test Wallet' })).toBeNull()
  })
})
