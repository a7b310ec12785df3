import { LatchkeyError } from '@latchkey/core'
import { MODAL_OPEN_DELAY_MS, SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ETH_ADDRESS, renderWithWallets } from '../test/wallet.tsx'
import { useRecoverWallet } from './useRecoverWallet.ts'
import { useSignMessage } from './useSignMessage.ts'

// The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(() => import('../modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

const PASSWORD = 'correct-horse-1'

/** A password-protected wallet on a new device: connect says needs-recovery until the right password. */
function newDevice() {
  let recovered = false
  return (event: string, data: Record<string, unknown>) => {
    if (event === 'latchkey:wallets:connect')
      return {
        entropy_id: ETH_ADDRESS,
        status: recovered ? 'ready' : 'needs-recovery',
        recovery_method: 'user-passcode',
      }
    if (event === 'latchkey:wallets:recover') {
      if (data.password !== PASSWORD) throw new LatchkeyError('INVALID_RECOVERY_PASSWORD')
      recovered = true
      return {}
    }
    return undefined
  }
}

type Hooks = {
  signMessage: ReturnType<typeof useSignMessage>['signMessage']
  recoverWallet: ReturnType<typeof useRecoverWallet>['recoverWallet']
}
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.signMessage = useSignMessage().signMessage
  hooks.recoverWallet = useRecoverWallet().recoverWallet
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
const typePassword = (value: string) =>
  fireEvent.change(screen.getByLabelText('Password'), { target: { value } })

describe('recovering a password-protected wallet on a new device', () => {
  it("sign → 'Enter your password' → wrong password → right password → the signature resolves", async () => {
    vi.useFakeTimers()
    const { hooks, enclave, rpc } = setup({ enclave: newDevice() })
    const result = outcome(hooks.signMessage({ message: 'Hello' }))
    await elapse(MODAL_OPEN_DELAY_MS)
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    await elapse()

    const dialog = screen.getByRole('dialog')
    const heading = screen.getByRole('heading', { name: 'Enter your password' })
    expect(dialog.getAttribute('aria-labelledby')).toBe(heading.id)
    const recover = screen.getByRole('button', { name: 'Recover your account' })
    expect((recover as HTMLButtonElement).disabled).toBe(true)
    expect(rpc).not.toHaveBeenCalled()

    typePassword('wrong-password')
    expect((recover as HTMLButtonElement).disabled).toBe(false)
    fireEvent.click(recover)
    await elapse()
    expect(screen.getByRole('alert').textContent).toBe(
      'Invalid recovery password, please try again.',
    )
    // Editing clears the message; the user tries again.
    typePassword(PASSWORD)
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Recover your account' }))

    // Back on the sign screen, signing straight away: the user already asked to sign.
    await elapse()
    screen.getByRole('button', { name: 'Success' })
    expect(enclave).toHaveBeenCalledWith(
      'latchkey:wallets:recover',
      {
        access_token: expect.any(String),
        entropy_id: ETH_ADDRESS,
        password: PASSWORD,
      },
      expect.anything(),
    )
    expect(rpc).toHaveBeenCalledOnce()
    let settled = false
    void result.then(() => (settled = true))
    await elapse(SUCCESS_CLOSE_DELAY_MS - 1)
    expect(settled).toBe(false)
    await elapse(1)
    expect(settled).toBe(true)
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
  })

  it("offers 'Why is this necessary?' and shows/hides the password", async () => {
    const { hooks } = setup({ enclave: newDevice() })
    void outcome(hooks.signMessage({ message: 'Hello' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Sign and continue' }))
    const why = await screen.findByRole('button', { name: 'Why is this necessary?' })
    expect(why.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(why)
    expect(why.getAttribute('aria-expanded')).toBe('true')
    expect(document.getElementById(why.getAttribute('aria-controls') ?? '')?.textContent).toMatch(
      /new device|has not used your wallet/,
    )
    const input = screen.getByLabelText('Password') as HTMLInputElement
    expect(input.type).toBe('password')
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(input.type).toBe('text')
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }))
    expect(input.type).toBe('password')
  })

  it("shows 'An error has occurred, please try again.' for other failures", async () => {
    const device = newDevice()
    const { hooks } = setup({
      enclave: (event, data) => {
        if (event === 'latchkey:wallets:recover') throw new Error('enclave exploded')
        return device(event, data)
      },
    })
    void outcome(hooks.signMessage({ message: 'Hello' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('heading', { name: 'Enter your password' })
    typePassword(PASSWORD)
    fireEvent.click(screen.getByRole('button', { name: 'Recover your account' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An error has occurred, please try again.',
    )
  })

  it("closing the password screen rejects with 'User exited before their wallet could be recovered'", async () => {
    const { hooks } = setup({ enclave: newDevice() })
    const result = outcome(hooks.signMessage({ message: 'Hello' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Sign and continue' }))
    await screen.findByRole('heading', { name: 'Enter your password' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error.code).toBe('RECOVERY_EXITED')
    expect(error.message).toBe('User exited before their wallet could be recovered')
  })

  it('without wallet UIs, signing opens only the password screen, then signs', async () => {
    const { hooks, rpc } = setup({ enclave: newDevice() })
    const result = outcome(
      hooks.signMessage({ message: 'Hello' }, { uiOptions: { showWalletUIs: false } }),
    )
    await screen.findByRole('heading', { name: 'Enter your password' })
    typePassword(PASSWORD)
    fireEvent.click(screen.getByRole('button', { name: 'Recover your account' }))
    expect(await result).toEqual({ value: { signature: '0xsignature' } })
    expect(rpc).toHaveBeenCalledOnce()
  })

  it('useRecoverWallet resolves at once for a ready wallet and prompts on a new device', async () => {
    const ready = setup()
    await expect(ready.hooks.recoverWallet()).resolves.toBeUndefined()
    expect(screen.queryByRole('dialog')).toBeNull()
    cleanup()

    const { hooks } = setup({ enclave: newDevice() })
    const result = outcome(hooks.recoverWallet())
    await screen.findByRole('heading', { name: 'Enter your password' })
    typePassword(PASSWORD)
    fireEvent.click(screen.getByRole('button', { name: 'Recover your account' }))
    expect(await result).toEqual({ value: undefined })
  })

  it("logged out or without a wallet: 'User must be authenticated and have a Latchkey wallet before it can be recovered'", async () => {
    const loggedOut = setup({ authenticated: false })
    await loggedOut.instance.client.session.initialize()
    await expect(loggedOut.hooks.recoverWallet()).rejects.toMatchObject({
      code: 'RECOVER_NOT_AUTHENTICATED',
      message: 'User must be authenticated and have a Latchkey wallet before it can be recovered',
    })
    cleanup()

    const noWallet = setup({ chains: [] })
    await expect(noWallet.hooks.recoverWallet()).rejects.toMatchObject({
      code: 'RECOVER_NOT_AUTHENTICATED',
    })
    // A wallet asked for by an address the user does not have stays 'not found'.
    await expect(
      noWallet.hooks.recoverWallet({ address: '0x2222222222222222222222222222222222222222' }),
    ).rejects.toMatchObject({ code: 'WALLET_NOT_FOUND' })
  })
})
