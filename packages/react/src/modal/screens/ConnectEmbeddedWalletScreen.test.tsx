import { LatchkeyError } from '@latchkey/core'
import {
  CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS,
  MODAL_OPEN_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { connectWalletStep } from '../../hooks/signing.ts'
import { useRecoverWallet } from '../../hooks/useRecoverWallet.ts'
import { ETH_ADDRESS, renderWithWallets } from '../../test/wallet.tsx'

// Spec 03 §2 / §4 "Connect wallet" (issue 17, item 10): a loader while the
// embedded wallet connects or recovers, then the action goes on; its failure
// screen and Close; closing it early; at least 1 s when export opened it.

beforeAll(() => import('../chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

const outcome = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

type Hooks = { recoverWallet: ReturnType<typeof useRecoverWallet>['recoverWallet'] }
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.recoverWallet = useRecoverWallet().recoverWallet
  return null
}

/**
 * A wallet on a new device: connect says needs-recovery with `method` until a
 * recover succeeded; recover waits for `finishRecovery` (or fails with `failWith`).
 */
function newDevice(method: string, failWith?: LatchkeyError) {
  let recovered = false
  let finish: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    finish = resolve
  })
  const enclave = async (event: string) => {
    if (event === 'latchkey:wallets:connect')
      return {
        entropy_id: ETH_ADDRESS,
        status: recovered ? 'ready' : 'needs-recovery',
        recovery_method: method,
      }
    if (event === 'latchkey:wallets:recover') {
      await gate
      if (failWith) throw failWith
      recovered = true
      return { entropy_id: ETH_ADDRESS, status: 'ready', recovery_method: method }
    }
    return undefined
  }
  const hooks = {} as Hooks
  return {
    hooks,
    finishRecovery: () => finish(),
    ...renderWithWallets(<Probe hooks={hooks} />, { enclave }),
  }
}

const loader = () => screen.queryByRole('heading', { name: 'Connecting your wallet' })

describe('the connect-wallet screen', () => {
  it('shows the loader while an automatic wallet recovers on a new device, then goes on', async () => {
    vi.useFakeTimers()
    const { hooks, finishRecovery, enclave, instance } = newDevice('latchkey')
    const result = outcome(hooks.recoverWallet())
    await elapse(MODAL_OPEN_DELAY_MS)
    expect(loader()).toBeTruthy()
    expect(screen.getByRole('status', { name: 'Connecting your wallet' })).toBeTruthy()
    // Spec 03 §4: automatic recovery asks for no password.
    expect(screen.queryByLabelText('Password')).toBeNull()
    finishRecovery()
    await elapse()
    expect(await result).toEqual({ value: undefined })
    expect(instance.getUiState().open).toBe(false)
    expect(enclave.mock.calls.map(([event]) => event)).toContain('latchkey:wallets:recover')
  })

  it('a wallet already on this device needs no screen', async () => {
    vi.useFakeTimers()
    const hooks = {} as Hooks
    const { instance } = renderWithWallets(<Probe hooks={hooks} />)
    await expect(hooks.recoverWallet()).resolves.toBeUndefined()
    await elapse(MODAL_OPEN_DELAY_MS)
    expect(instance.getUiState().open).toBe(false)
  })

  it("closing it while the wallet connects: 'User exited before wallet could be connected'", async () => {
    vi.useFakeTimers()
    const { hooks } = newDevice('latchkey')
    const result = outcome(hooks.recoverWallet())
    await elapse(MODAL_OPEN_DELAY_MS)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error).toMatchObject({ code: 'EMBEDDED_WALLET_CONNECT_EXITED' })
    expect(error.message).toBe('User exited before wallet could be connected')
  })

  it("a failure: 'Something went wrong. We’re on it. Please try again later.' and Close", async () => {
    vi.useFakeTimers()
    const { hooks, finishRecovery } = newDevice(
      'latchkey',
      new LatchkeyError('UNABLE_TO_RECOVER_WALLET'),
    )
    const result = outcome(hooks.recoverWallet())
    await elapse(MODAL_OPEN_DELAY_MS)
    finishRecovery()
    await elapse()
    screen.getByRole('heading', {
      name: 'Something went wrong. We’re on it. Please try again later.',
    })
    expect(screen.queryByRole('button', { name: /Retry|Try again/ })).toBeNull()
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement)
    // The action rejects with the cause, so an app can tell failures apart.
    expect(await result).toEqual({
      error: expect.objectContaining({
        code: 'UNABLE_TO_RECOVER_WALLET',
        message: 'Unable to recover wallet',
      }),
    })
  })

  it("a password-protected wallet: 'Enter your password' on the connect screen, then it goes on", async () => {
    vi.useFakeTimers()
    const { hooks, finishRecovery } = newDevice('user-passcode')
    finishRecovery()
    const result = outcome(hooks.recoverWallet())
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Enter your password' })
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct-horse-1' } })
    fireEvent.click(screen.getByRole('button', { name: 'Recover your account' }))
    await elapse()
    expect(await result).toEqual({ value: undefined })
  })

  it('before another screen (export): shows at least 1 s even when the wallet is here at once', async () => {
    vi.useFakeTimers()
    const { instance } = renderWithWallets(null)
    const opened = outcome(
      instance.openWalletScreen({
        screen: 'secure-account',
        mode: 'update',
        currentMethod: 'latchkey',
        options: ['user-passcode'],
        setPassword: async () => {},
        setAutomatic: async () => {},
        startConsent: async () => {},
        connectWallet: connectWalletStep(instance, ETH_ADDRESS, {
          minimumDisplayMs: CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS,
        }),
      }),
    )
    await elapse(MODAL_OPEN_DELAY_MS)
    expect(loader()).toBeTruthy()
    await elapse(CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS - MODAL_OPEN_DELAY_MS - 1)
    expect(loader()).toBeTruthy()
    await elapse(1)
    expect(loader()).toBeNull()
    screen.getByRole('heading', { name: 'Update backup method' })
    // Connected: closing now is the screen's own exit, no longer the connect screen's.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(await opened).toEqual({ error: expect.objectContaining({ code: 4001 }) })
  })
})
