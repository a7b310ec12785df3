import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type SentCall, setupWalletCreation, userWire } from '../../test/wallet-creation.ts'
import { WalletCreationScreen } from './WalletCreationScreen.tsx'

// Spec 02 §2 "Create embedded wallet: a loading spinner; on error it shows a
// message and a Close button", §4 "A failed creation after login logs the
// user out (an analytics event embedded_wallet_creation_failure_logout
// carries error and screen)" and "Closing without success reports failure
// ('User exited set recovery flow' for the recovery flow)". Issue 17, item 11.

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0))

const analytics = (sent: SentCall[]) =>
  sent.filter((c) => c.url.endsWith('/api/v1/analytics_events')).map((c) => c.body)
const paths = (sent: SentCall[]) => sent.map((c) => new URL(c.url).pathname)

function renderStep(
  enclave: (event: string, data?: unknown) => Promise<unknown>,
  options: { userOwnedRecovery?: Array<'user-passcode'> } = {},
) {
  const setup = setupWalletCreation(enclave)
  const props = {
    onDone: vi.fn(),
    onFailed: vi.fn(),
    onClose: vi.fn(),
    onExitChange: vi.fn(),
  }
  render(
    <WalletCreationScreen
      client={setup.client}
      chains={['ethereum']}
      isNewUser
      appName="Demo"
      userOwnedRecovery={options.userOwnedRecovery ?? null}
      {...props}
    />,
  )
  return { ...setup, ...props }
}

describe('a failed post-login wallet creation', () => {
  it('logs out, reports the error and the screen, and shows the message with Close (no Retry)', async () => {
    vi.useFakeTimers()
    const step = renderStep(async () => {
      throw new Error('enclave down')
    })
    await settle()
    // Spec 02 §8: a failure nobody named reads 'User wallet creation failed'.
    screen.getByRole('heading', { name: 'User wallet creation failed' })
    expect(screen.queryByRole('button', { name: /Retry|Go back/ })).toBeNull()
    expect(step.client.session.getState().status).toBe('unauthenticated')
    expect(analytics(step.sent)).toEqual([
      expect.objectContaining({
        event_name: 'embedded_wallet_creation_failure_logout',
        payload: expect.objectContaining({
          error: 'USER_WALLET_CREATION_FAILED',
          screen: 'wallet-creation',
        }),
      }),
    ])
    // The event goes out before the logout ends the session.
    expect(paths(step.sent)).toEqual(['/api/v1/analytics_events', '/api/v1/sessions/logout'])
    expect(step.onFailed).toHaveBeenCalledWith('USER_WALLET_CREATION_FAILED')
    expect(step.onClose).not.toHaveBeenCalled()

    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement)
    expect(step.onClose).toHaveBeenCalledOnce()
    expect(step.onDone).not.toHaveBeenCalled()
  })

  it('a named failure shows its own message', async () => {
    vi.useFakeTimers()
    renderStep(async () => {
      throw new LatchkeyError('WALLET_PROXY_DISCONNECTED')
    })
    await settle()
    screen.getByRole('heading', { name: 'Cannot connect to wallet proxy' })
  })

  it("the password wizard's failed creation logs out too, from the 'set-password' screen; Close is no success", async () => {
    vi.useFakeTimers()
    const step = renderStep(
      async () => {
        throw new LatchkeyError('USER_WALLET_CREATION_FAILED')
      },
      { userOwnedRecovery: ['user-passcode'] },
    )
    const password = 'Latchkey-test-123!'
    fireEvent.click(screen.getByRole('button', { name: 'Add password' }))
    fireEvent.change(screen.getByLabelText('Password', { exact: true }), {
      target: { value: password },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: password } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: 'Set Password' }))
    await settle()
    screen.getByRole('heading', { name: 'Something went wrong' })
    expect(step.client.session.getState().status).toBe('unauthenticated')
    expect(analytics(step.sent)).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({
          error: 'USER_WALLET_CREATION_FAILED',
          screen: 'set-password',
        }),
      }),
    ])
    expect(step.onFailed).toHaveBeenCalledWith('USER_WALLET_CREATION_FAILED')
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' }).at(-1) as HTMLElement)
    expect(step.onClose).toHaveBeenCalledOnce()
    expect(step.onDone).not.toHaveBeenCalled()
  })

  it("closing during the recovery choice means 'User exited set recovery flow'; after the choice, nothing", async () => {
    vi.useFakeTimers()
    const step = renderStep(async () => ({ user: userWire(true) }), {
      userOwnedRecovery: ['user-passcode'],
    })
    await settle()
    expect(step.onExitChange).toHaveBeenLastCalledWith('SET_RECOVERY_EXITED')
    const password = 'Latchkey-test-123!'
    fireEvent.click(screen.getByRole('button', { name: 'Add password' }))
    fireEvent.change(screen.getByLabelText('Password', { exact: true }), {
      target: { value: password },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: password } })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: 'Set Password' }))
    await settle()
    screen.getByRole('heading', { name: 'Success' })
    expect(step.onExitChange).toHaveBeenLastCalledWith(null)
    expect(step.client.session.getState().status).toBe('authenticated')
  })
})
