import type { LatchkeyError } from '@latchkey/core'
import { MODAL_OPEN_DELAY_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ETH_ADDRESS, renderWithWallets } from '../test/wallet.tsx'
import { useSetWalletRecovery } from './useSetWalletRecovery.ts'

// Spec 02 §4 (issue 17, item 13): closing 'Update backup method' before a
// change rejects with 'User exited set recovery flow'; on a new device the
// connect-wallet screen (spec 03) recovers the wallet first, in the same dialog.

beforeAll(() => import('../modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const outcome = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )

type Hooks = { setWalletRecovery: ReturnType<typeof useSetWalletRecovery>['setWalletRecovery'] }
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.setWalletRecovery = useSetWalletRecovery().setWalletRecovery
  return null
}

describe('useSetWalletRecovery', () => {
  it("closing 'Update backup method' rejects with 'User exited set recovery flow'", async () => {
    vi.useFakeTimers()
    const hooks = {} as Hooks
    renderWithWallets(<Probe hooks={hooks} />)
    const result = outcome(hooks.setWalletRecovery())
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Update backup method' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    const { error } = (await result) as { error: LatchkeyError }
    expect(error.code).toBe('SET_RECOVERY_EXITED')
    expect(error.message).toBe('User exited set recovery flow')
  })

  it('on a new device the connect-wallet screen recovers the wallet first, then the options show', async () => {
    vi.useFakeTimers()
    let recovered = false
    const hooks = {} as Hooks
    const { instance, enclave } = renderWithWallets(<Probe hooks={hooks} />, {
      enclave: (event) => {
        if (event === 'latchkey:wallets:connect')
          return {
            entropy_id: ETH_ADDRESS,
            status: recovered ? 'ready' : 'needs-recovery',
            recovery_method: 'latchkey',
          }
        if (event === 'latchkey:wallets:recover') {
          recovered = true
          return { entropy_id: ETH_ADDRESS, status: 'ready', recovery_method: 'latchkey' }
        }
        return undefined
      },
    })
    const opened: boolean[] = []
    instance.subscribeUi(() => opened.push(instance.getUiState().open))
    void outcome(hooks.setWalletRecovery())
    await elapse(MODAL_OPEN_DELAY_MS)
    screen.getByRole('heading', { name: 'Update backup method' })
    expect(enclave.mock.calls.map(([event]) => event)).toContain('latchkey:wallets:recover')
    // One dialog throughout: it never closed between the two screens.
    expect(opened).not.toContain(false)
  })
})
