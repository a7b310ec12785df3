import type { User } from '@latchkey/core'
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

  it("focuses 'No thanks', not the destructive 'Transfer and delete account' (issue 16, item 7b)", () => {
    const onDecline = vi.fn()
    const transfer = vi.fn(async () => user)
    const walletOffer = {
      ...offer,
      other_user: {
        embedded_wallet_address: '0x1111111111111111111111111111111111111111',
        embedded_wallet_chain_type: 'ethereum' as const,
      },
    }
    for (const o of [offer, walletOffer]) {
      render(
        <AccountTransferScreen
          offer={o}
          explorerUrl={null}
          transfer={transfer}
          onDecline={onDecline}
          onDone={vi.fn()}
        />,
      )
      const decline = screen.getByRole('button', { name: 'No thanks' })
      expect(document.activeElement).toBe(decline)
      const destructive = screen.getByRole('button', { name: 'Transfer and delete account' })
      expect(destructive.className).toContain('lk-btn-danger')
      expect(destructive.className).not.toContain('lk-btn-primary')
      cleanup()
    }
    expect(transfer).not.toHaveBeenCalled()
  })
})
