import { LatchkeyError } from '@latchkey/core'
import { ACCOUNT_DELETED_CLOSE_DELAY_MS, MODAL_OPEN_DELAY_MS } from '@latchkey/protocol/constants'
import { errorMessages } from '@latchkey/protocol/errors'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { useDeleteAccount } from '../../hooks/useDeleteAccount.ts'
import { useLatchkey } from '../../hooks/useLatchkey.ts'
import { ETH_ADDRESS, renderWithWallets } from '../../test/wallet.tsx'

// The modal chunk and this lazily loaded screen, loaded once up front (docs/testing.md).
beforeAll(async () => {
  await import('../chunk.ts')
  await import('./DeleteAccountScreen.tsx')
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** Under fake timers: lets pending promises settle and React commit, then `ms` pass. */
const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

type Hooks = {
  deleteAccount: () => Promise<void>
  authenticated: boolean
}
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.deleteAccount = useDeleteAccount().deleteAccount
  hooks.authenticated = useLatchkey().authenticated
  return null
}

/** A deferred answer for `latchkey:account:delete`, so the busy state can be looked at. */
function deferred() {
  let settle!: { resolve(value: unknown): void; reject(error: unknown): void }
  const promise = new Promise((resolve, reject) => {
    settle = { resolve, reject }
  })
  return { promise, ...settle }
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
const deleteCalls = (enclave: ReturnType<typeof setup>['enclave']) =>
  enclave.mock.calls.filter(([event]) => event === 'latchkey:account:delete')

describe('useDeleteAccount: the confirmation screen', () => {
  it('confirms, shows a busy button, then "Account deleted"; the modal closes 1 s later and the user is logged out', async () => {
    vi.useFakeTimers()
    const answer = deferred()
    const { hooks, enclave } = setup({
      enclave: (event) => (event === 'latchkey:account:delete' ? answer.promise : undefined),
    })
    const result = outcome(hooks.deleteAccount())
    await elapse(MODAL_OPEN_DELAY_MS)

    screen.getByRole('heading', { name: 'Delete your account?' })
    screen.getByText('This deletes your account and the logins linked to it.')
    expect(screen.getByTestId('delete-account-wallet-warning').textContent).toBe(
      "Your embedded wallet will be deleted from this app's servers. Export it first if it holds anything you want to keep.",
    )
    // Cancel has the focus; the destructive button does not.
    expect(document.activeElement).toBe(button('Cancel'))
    expect(button('Delete account').className).toContain('lk-btn-danger')
    button('Export wallet')

    fireEvent.click(button('Delete account'))
    await elapse()
    const busy = button('Deleting…')
    expect(busy.disabled).toBe(true)
    expect(busy.getAttribute('aria-busy')).toBe('true')
    expect(busy.querySelector('.lk-spinner')).not.toBeNull()
    expect(button('Cancel').disabled).toBe(true)
    expect(deleteCalls(enclave)).toEqual([
      ['latchkey:account:delete', { access_token: expect.any(String) }, expect.anything()],
    ])
    expect(hooks.authenticated).toBe(true)

    answer.resolve({ success: true })
    await elapse()
    screen.getByRole('heading', { name: 'Account deleted' })
    expect(hooks.authenticated).toBe(false)
    await elapse(ACCOUNT_DELETED_CLOSE_DELAY_MS - 1)
    expect(screen.getByRole('dialog')).toBeTruthy()
    await elapse(1)
    expect(await result).toEqual({ value: undefined })
  })

  it('a user without an embedded wallet gets no wallet warning and no "Export wallet"', async () => {
    const { hooks } = setup({ chains: [] })
    const result = outcome(hooks.deleteAccount())
    await screen.findByRole('heading', { name: 'Delete your account?' })
    expect(screen.queryByTestId('delete-account-wallet-warning')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Export wallet' })).toBeNull()
    fireEvent.click(button('Cancel'))
    await result
  })

  it("Cancel rejects with ACCOUNT_DELETION_EXITED ('User exited before deleting the account') and deletes nothing", async () => {
    const { hooks, enclave } = setup()
    const result = outcome(hooks.deleteAccount())
    await screen.findByRole('heading', { name: 'Delete your account?' })
    fireEvent.click(button('Cancel'))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error.code).toBe('ACCOUNT_DELETION_EXITED')
    expect(error.message).toBe('User exited before deleting the account')
    expect(deleteCalls(enclave)).toEqual([])
    expect(hooks.authenticated).toBe(true)
  })

  it("a failure shows the catalogue's message and brings the buttons back; closing then rejects with that error", async () => {
    const { hooks } = setup({
      enclave: (event) => {
        if (event === 'latchkey:account:delete') throw new LatchkeyError('TOO_MANY_REQUESTS')
        return undefined
      },
    })
    const result = outcome(hooks.deleteAccount())
    await screen.findByRole('heading', { name: 'Delete your account?' })
    fireEvent.click(button('Delete account'))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe(errorMessages.TOO_MANY_REQUESTS.title)
    expect(button('Delete account').disabled).toBe(false)
    expect(button('Cancel').disabled).toBe(false)
    expect(hooks.authenticated).toBe(true)

    fireEvent.click(button('Close'))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error.code).toBe('TOO_MANY_REQUESTS')
  })

  it('Delete account again after a failure: the retry succeeds and the promise resolves', async () => {
    let calls = 0
    const { hooks } = setup({
      enclave: (event) => {
        if (event !== 'latchkey:account:delete') return undefined
        calls += 1
        if (calls === 1) throw new LatchkeyError('NETWORK_ERROR')
        return { success: true }
      },
    })
    const result = outcome(hooks.deleteAccount())
    await screen.findByRole('heading', { name: 'Delete your account?' })
    fireEvent.click(button('Delete account'))
    expect((await screen.findByRole('alert')).textContent).toBe(errorMessages.NETWORK_ERROR.title)
    fireEvent.click(button('Delete account'))
    await screen.findByRole('heading', { name: 'Account deleted' })
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(button('Close'))
    expect(await result).toEqual({ value: undefined })
    expect(hooks.authenticated).toBe(false)
  })

  it('closing the modal while the deletion runs answers with its outcome, not an exit', async () => {
    const answer = deferred()
    const { hooks } = setup({
      enclave: (event) => (event === 'latchkey:account:delete' ? answer.promise : undefined),
    })
    const result = outcome(hooks.deleteAccount())
    await screen.findByRole('heading', { name: 'Delete your account?' })
    fireEvent.click(button('Delete account'))
    await screen.findByRole('button', { name: 'Deleting…' })
    fireEvent.click(button('Close'))
    answer.resolve({ success: true })
    expect(await result).toEqual({ value: undefined })
    expect(hooks.authenticated).toBe(false)
  })

  it("'Export wallet' opens the export screen in its place; the deletion is left (ACCOUNT_DELETION_EXITED)", async () => {
    const { hooks, enclave, instance } = setup()
    // The export screen frames the enclave's export page, which happy-dom cannot load: the
    // stand-in takes the modal over as the real one does (the open screen is settled).
    const open = instance.openWalletScreen.bind(instance)
    const opened = vi.spyOn(instance, 'openWalletScreen').mockImplementation((request) => {
      if (request.screen !== 'export-wallet') return open(request)
      instance.closeModal()
      return Promise.resolve() as never
    })
    const result = outcome(hooks.deleteAccount())
    await screen.findByRole('heading', { name: 'Delete your account?' })
    fireEvent.click(button('Export wallet'))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error.code).toBe('ACCOUNT_DELETION_EXITED')
    expect(opened.mock.calls.map(([request]) => request.screen)).toEqual([
      'delete-account',
      'export-wallet',
    ])
    expect(opened.mock.calls[1]?.[0]).toMatchObject({
      init: { chain_type: 'ethereum', entropy_id: ETH_ADDRESS },
    })
    expect(deleteCalls(enclave)).toEqual([])
    expect(hooks.authenticated).toBe(true)
  })

  it('logged out: NOT_AUTHENTICATED, and no screen opens', async () => {
    const { hooks } = setup({ authenticated: false })
    const { error } = (await outcome(hooks.deleteAccount())) as { error: LatchkeyError }
    expect(error.code).toBe('NOT_AUTHENTICATED')
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
