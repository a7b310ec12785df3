import { LatchkeyError, type User } from '@latchkey/core'
import { TRANSFER_SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import AccountTransferScreen from './AccountTransferScreen.tsx'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const elapse = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const offer = {
  nonce: 'nonce-1',
  account: { type: 'email', display_name: 'taken@example.com' },
  other_user: { embedded_wallet_address: null, embedded_wallet_chain_type: null },
}
const user = { id: 'did:latchkey:u1' } as User

describe('AccountTransferScreen (spec 02 "Account transfer")', () => {
  it("closes 1 s after 'Success!' even when the parent re-renders in between", async () => {
    vi.useFakeTimers()
    const first = vi.fn()
    const props = { offer, explorerUrl: null, transfer: async () => user, onDecline: vi.fn() }
    const { rerender } = render(<AccountTransferScreen {...props} onDone={first} />)
    fireEvent.click(screen.getByRole('button', { name: 'Transfer and delete account' }))
    await elapse(0)
    expect(screen.getByText('Success!')).toBeTruthy()

    // The parent renders again halfway through, with a new callback.
    await elapse(TRANSFER_SUCCESS_CLOSE_DELAY_MS / 2)
    const second = vi.fn()
    rerender(<AccountTransferScreen {...props} onDone={second} />)

    await elapse(TRANSFER_SUCCESS_CLOSE_DELAY_MS / 2 - 1)
    expect(second).not.toHaveBeenCalled()
    await elapse(1)
    expect(second).toHaveBeenCalledWith(user)
    expect(first).not.toHaveBeenCalled()
  })

  it("without a wallet on the other account the prompt is the confirm step; 'No thanks' has the focus", () => {
    const transfer = vi.fn(async () => user)
    render(
      <AccountTransferScreen
        offer={offer}
        explorerUrl={null}
        transfer={transfer}
        onDecline={vi.fn()}
        onDone={vi.fn()}
      />,
    )
    screen.getByRole('heading', { name: 'Transfer account?' })
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    expectDestructiveNotDefault()
    expect(transfer).not.toHaveBeenCalled()
  })

  it("with a wallet: prompt → 'Continue' → 'Check assets first' → confirm → 'Success!' (spec 02 §2, §4)", async () => {
    const transfer = vi.fn(async () => user)
    const onDone = vi.fn()
    render(
      <AccountTransferScreen
        offer={walletOffer}
        explorerUrl={`https://etherscan.io/address/${WALLET}`}
        transfer={transfer}
        onDecline={vi.fn()}
        onDone={onDone}
      />,
    )
    // 1. Prompt: no destructive button yet; 'No thanks' is still the default.
    screen.getByRole('heading', { name: 'Transfer account?' })
    expect(screen.queryByRole('button', { name: 'Transfer and delete account' })).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'No thanks' }))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))

    // 2. Asset check: the address, copy and the block explorer.
    screen.getByRole('heading', { name: 'Check assets first' })
    expect(screen.getByTestId('transfer-wallet-address').textContent).toBe(WALLET)
    expect(screen.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://etherscan.io/address/${WALLET}`,
    )
    screen.getByRole('button', { name: 'Copy address' })
    expect(screen.queryByRole('button', { name: 'Transfer and delete account' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))

    // 3. Confirm: the destructive button, never the focused default; Back returns to the asset check.
    screen.getByRole('heading', { name: 'Delete the other account?' })
    expectDestructiveNotDefault()
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    screen.getByRole('heading', { name: 'Check assets first' })
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(transfer).not.toHaveBeenCalled()
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Transfer and delete account' })),
    )
    expect(transfer).toHaveBeenCalledOnce()
    screen.getByRole('button', { name: 'Success!' })
  })

  it('a refused transfer shows its reason on the confirm step and keeps the choice', async () => {
    const transfer = vi.fn(async (): Promise<User> => {
      throw new LatchkeyError('TRANSFER_EXPIRED')
    })
    render(
      <AccountTransferScreen
        offer={walletOffer}
        explorerUrl={null}
        transfer={transfer}
        onDecline={vi.fn()}
        onDone={vi.fn()}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Transfer and delete account' })),
    )
    screen.getByRole('heading', { name: 'Delete the other account?' })
    expect(screen.getByRole('alert').textContent).toBe(
      new LatchkeyError('TRANSFER_EXPIRED').userMessageLine,
    )
    expectDestructiveNotDefault()
  })
})

const WALLET = '0x1111111111111111111111111111111111111111'
const walletOffer = {
  ...offer,
  other_user: { embedded_wallet_address: WALLET, embedded_wallet_chain_type: 'ethereum' as const },
}

/** 'No thanks' holds the focus; 'Transfer and delete account' is styled destructive (issue 16, item 7b). */
function expectDestructiveNotDefault() {
  expect(document.activeElement).toBe(screen.getByRole('button', { name: 'No thanks' }))
  const destructive = screen.getByRole('button', { name: 'Transfer and delete account' })
  expect(destructive.className).toContain('lk-btn-danger')
  expect(destructive.className).not.toContain('lk-btn-primary')
}
