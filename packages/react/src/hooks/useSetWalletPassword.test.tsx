import { LatchkeyError } from '@latchkey/core'
import {
  COPY_FEEDBACK_MS,
  DOWNLOAD_URL_REVOKE_DELAY_MS,
  MODAL_OPEN_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ETH_ADDRESS, renderWithWallets } from '../test/wallet.tsx'
import { useSetWalletPassword } from './useSetWalletPassword.ts'
import { useSetWalletRecovery } from './useSetWalletRecovery.ts'
import { type ConnectedEthereumWallet, useWallets } from './useWallets.ts'

// The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(() => import('../modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

type Hooks = {
  setWalletPassword: ReturnType<typeof useSetWalletPassword>['setWalletPassword']
  wallets: ConnectedEthereumWallet[]
}
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.setWalletPassword = useSetWalletPassword().setWalletPassword
  hooks.wallets = useWallets().wallets.filter(
    (w): w is ConnectedEthereumWallet => w.connectorType === 'embedded',
  )
  return null
}
type RecoveryHooks = { setWalletRecovery: () => Promise<void> }
function RecoveryProbe({ hooks }: { hooks: RecoveryHooks }) {
  hooks.setWalletRecovery = useSetWalletRecovery().setWalletRecovery
  return null
}
function setup(options: Parameters<typeof renderWithWallets>[1] = {}) {
  const hooks = {} as Hooks
  return { hooks, ...renderWithWallets(<Probe hooks={hooks} />, options) }
}
const outcome = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } })

describe('useSetWalletPassword: the password wizard', () => {
  it('walks creating → saving → confirming → finalizing → done and sets the password in the enclave', async () => {
    vi.useFakeTimers()
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const createObjectURL = vi.fn(() => 'blob:latchkey-password')
    const revokeObjectURL = vi.fn()
    Object.assign(URL, { createObjectURL, revokeObjectURL })
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const { hooks, enclave } = setup()
    expect(hooks.wallets[0]?.recovery.method).toBe('latchkey')
    const result = outcome(hooks.setWalletPassword())

    // 1. Create: type, validate, rate, generate, show/hide.
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Create a password' })
    expect(button('Continue').disabled).toBe(true)
    type('Password', 'abc')
    expect(screen.getByRole('alert').textContent).toBe('Password must be at least 6 characters')
    type('Password', 'my pass~')
    expect(screen.getByRole('alert').textContent).toBe('Invalid characters used ( SPACE ~ )')
    type('Password', 'password')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByTestId('lk-password-strength').textContent).toBe('Strength: Weak')
    type('Password', 'Password1')
    expect(screen.getByTestId('lk-password-strength').textContent).toBe('Strength: Medium')
    fireEvent.click(button('Generate'))
    expect(screen.getByTestId('lk-password-strength').textContent).toBe('Strength: Strong')
    const input = screen.getByLabelText('Password') as HTMLInputElement
    const password = input.value
    expect(password).toHaveLength(20)
    expect(input.type).toBe('password')
    fireEvent.click(button('Show password'))
    expect(input.type).toBe('text')
    fireEvent.click(button('Continue'))

    // 2. Save: copy ('Copied' for 1.5 s) and download (blob URL revoked after 5 s).
    screen.getByRole('heading', { name: 'Save your password' })
    expect(screen.getByTestId('lk-password-value').textContent).toBe(password)
    fireEvent.click(button('Copy'))
    expect(writeText).toHaveBeenCalledWith(password)
    await elapse()
    expect(button('Copied')).toBeTruthy()
    await elapse(COPY_FEEDBACK_MS - 1)
    expect(button('Copied')).toBeTruthy()
    await elapse(1)
    expect(button('Copy')).toBeTruthy()
    fireEvent.click(button('Download'))
    expect(createObjectURL).toHaveBeenCalledOnce()
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0]
    expect(blob.type).toBe('text/plain')
    expect(await blob.text()).toBe(password)
    const link = click.mock.contexts[0] as HTMLAnchorElement
    expect(link.href).toBe('blob:latchkey-password')
    expect(link.download).toBe('latchkey-recovery-password.txt')
    await elapse(DOWNLOAD_URL_REVOKE_DELAY_MS - 1)
    expect(revokeObjectURL).not.toHaveBeenCalled()
    await elapse(1)
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:latchkey-password')
    fireEvent.click(button('Continue'))

    // 3. Confirm: a mismatch says so and keeps Continue disabled; Back and forth keeps the password.
    screen.getByRole('heading', { name: 'Confirm your password' })
    type('Confirm password', `${password}x`)
    expect(screen.getByRole('alert').textContent).toBe('Passwords do not match')
    expect(button('Continue').disabled).toBe(true)
    fireEvent.click(button('Back'))
    expect(screen.getByTestId('lk-password-value').textContent).toBe(password)
    fireEvent.click(button('Continue'))
    type('Confirm password', password)
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(button('Continue'))

    // 4. Finalize: the checkbox gates Set Password; Cancel is offered (user initiated).
    screen.getByRole('heading', { name: 'Set your password' })
    expect(button('Cancel')).toBeTruthy()
    expect(button('Set Password').disabled).toBe(true)
    fireEvent.click(screen.getByRole('checkbox'))
    expect(button('Set Password').disabled).toBe(false)
    fireEvent.click(button('Set Password'))

    // 5. Done.
    await elapse()
    screen.getByRole('heading', { name: 'Success' })
    expect(enclave).toHaveBeenCalledWith(
      'latchkey:wallets:set-recovery',
      {
        access_token: expect.any(String),
        entropy_id: ETH_ADDRESS,
        recovery: { method: 'user-passcode', password },
      },
      expect.anything(),
    )
    expect(hooks.wallets[0]?.recovery.method).toBe('user-passcode')
    // User initiated: it waits for Close.
    await elapse(2_000)
    expect(screen.getByRole('dialog')).toBeTruthy()
    // The done step's own Close button (the ✕ in the corner is named Close too).
    fireEvent.click(screen.getByText('Close', { selector: 'button' }))
    expect(await result).toEqual({ value: undefined })
  })

  it("closing before done rejects with 'Exited before password was added to wallet'", async () => {
    const { hooks, enclave } = setup()
    const result = outcome(hooks.setWalletPassword())
    await screen.findByRole('heading', { name: 'Create a password' })
    type('Password', 'abcdef12')
    fireEvent.click(button('Continue'))
    fireEvent.click(button('Close'))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error.code).toBe('SET_PASSWORD_EXITED')
    expect(error.message).toBe('Exited before password was added to wallet')
    expect(enclave).not.toHaveBeenCalledWith(
      'latchkey:wallets:set-recovery',
      expect.anything(),
      expect.anything(),
    )
  })

  it("Cancel on finalize rejects the same way; a failure shows 'Something went wrong' and Close", async () => {
    const { hooks } = setup({
      enclave: (event) => {
        if (event === 'latchkey:wallets:set-recovery')
          throw new LatchkeyError('WALLET_PROXY_UNAVAILABLE')
        return undefined
      },
    })
    const walk = async () => {
      await screen.findByRole('heading', { name: 'Create a password' })
      type('Password', 'abcdef12')
      fireEvent.click(button('Continue'))
      fireEvent.click(button('Continue'))
      type('Confirm password', 'abcdef12')
      fireEvent.click(button('Continue'))
      fireEvent.click(screen.getByRole('checkbox'))
    }
    const cancelled = outcome(hooks.setWalletPassword())
    await walk()
    fireEvent.click(button('Cancel'))
    expect(((await cancelled) as { error: LatchkeyError }).error.code).toBe('SET_PASSWORD_EXITED')

    const failed = outcome(hooks.setWalletPassword())
    await walk()
    fireEvent.click(button('Set Password'))
    await screen.findByRole('heading', { name: 'Something went wrong' })
    expect(screen.getByText('Failed to connect to wallet proxy')).toBeTruthy()
    fireEvent.click(screen.getByText('Close', { selector: 'button' }))
    expect(((await failed) as { error: LatchkeyError }).error.code).toBe('SET_PASSWORD_EXITED')
  })
})

describe('useSetWalletPassword in server-wallet-only mode (spec 02 §5)', () => {
  it('rejects with USER_OWNED_RECOVERY_UNSUPPORTED and opens nothing', async () => {
    const { hooks, instance, enclave } = setup()
    instance.setHostConfig({ embeddedWallets: { mode: 'user-controlled-server-wallets-only' } })
    const result = await outcome(hooks.setWalletPassword())
    expect(result).toMatchObject({ error: { code: 'USER_OWNED_RECOVERY_UNSUPPORTED' } })
    expect((result as { error: LatchkeyError }).error.userMessage.title).toBe(
      "This app doesn't offer password or cloud backup",
    )
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(enclave).not.toHaveBeenCalled()
  })

  it('useSetWalletRecovery: an automatic wallet has nothing to move to, so the same refusal', async () => {
    const hooks = {} as RecoveryHooks
    const { instance } = renderWithWallets(<RecoveryProbe hooks={hooks} />)
    instance.setHostConfig({ embeddedWallets: { mode: 'user-controlled-server-wallets-only' } })
    expect(await outcome(hooks.setWalletRecovery())).toMatchObject({
      error: { code: 'USER_OWNED_RECOVERY_UNSUPPORTED' },
    })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
