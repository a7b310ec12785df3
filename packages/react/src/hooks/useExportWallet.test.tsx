import { LatchkeyError } from '@latchkey/core'
import {
  CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS,
  MODAL_OPEN_DELAY_MS,
} from '@latchkey/protocol/constants'
import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithWallets } from '../test/wallet.tsx'
import { useExportWallet } from './useExportWallet.ts'

// The modal's lazy chunk, loaded once: opening the dialog then waits on nothing but promises.
beforeAll(() => import('../modal/chunk.ts'))
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

type Hooks = { exportWallet: ReturnType<typeof useExportWallet>['exportWallet'] }
function Probe({ hooks }: { hooks: Hooks }) {
  hooks.exportWallet = useExportWallet().exportWallet
  return null
}
function setup(options: Parameters<typeof renderWithWallets>[1] = {}) {
  const hooks = {} as Hooks
  return { hooks, ...renderWithWallets(<Probe hooks={hooks} />, options) }
}

describe('useExportWallet', () => {
  it("logged out: 'User must be authenticated before exporting their wallet' (spec 03 §8)", async () => {
    const { hooks } = setup({ authenticated: false })
    const error = await hooks.exportWallet().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('EXPORT_NOT_AUTHENTICATED')
    expect((error as LatchkeyError).userMessage.title).toBe(
      'User must be authenticated before exporting their wallet',
    )
  })

  it('sends embedded_wallet_key_export_completed once, on the first copy (spec 03 §7)', async () => {
    vi.useFakeTimers()
    const { hooks, client } = setup()
    const track = vi.spyOn(client, 'trackEvent')
    const exported = hooks.exportWallet()
    await elapse(MODAL_OPEN_DELAY_MS)
    // Spec 03 §4: the connect-wallet loader first, for at least 1 s, then the export page.
    screen.getByRole('heading', { name: 'Connecting your wallet' })
    // The loader's second starts when it mounts: at the open, or once the modal's chunk loads.
    await elapse(CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS - MODAL_OPEN_DELAY_MS - 1)
    expect(screen.queryByTitle('Export your wallet')).toBeNull()
    await elapse(MODAL_OPEN_DELAY_MS + 1)
    const frame = screen.getByTitle('Export your wallet') as HTMLIFrameElement
    // happy-dom loads no frame: stand in for the enclave page's window.
    const frameWindow = { postMessage: vi.fn() }
    Object.defineProperty(frame, 'contentWindow', { value: frameWindow })
    const fromFrame = (data: unknown) =>
      act(() => {
        window.dispatchEvent(
          new MessageEvent('message', {
            data,
            origin: 'http://latchkey.test',
            source: frameWindow as unknown as Window,
          }),
        )
      })
    fromFrame({ event: 'latchkey:export:ready' })
    expect(track).not.toHaveBeenCalled()
    fromFrame({ event: 'latchkey:export:copied', data: { what: 'seed_phrase' } })
    fromFrame({ event: 'latchkey:export:copied', data: { what: 'private_key' } })
    const sent = track.mock.calls.filter(([name]) => name.startsWith('embedded_wallet_key_export'))
    expect(sent).toEqual([
      ['embedded_wallet_key_export_completed', { chainType: 'ethereum', exported: 'seed_phrase' }],
    ])
    fromFrame({ event: 'latchkey:export:escape' })
    await elapse(1_000)
    await expect(exported).resolves.toBeUndefined()
  })

  it('closing without a copy sends nothing', async () => {
    vi.useFakeTimers()
    const { hooks, client } = setup()
    const track = vi.spyOn(client, 'trackEvent')
    const exported = hooks.exportWallet()
    await elapse(MODAL_OPEN_DELAY_MS)
    // Spec 03 §4: the connect-wallet loader stays at least 1 s before the export page.
    screen.getByRole('heading', { name: 'Connecting your wallet' })
    await elapse(CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS)
    await act(async () => screen.getByRole('button', { name: 'Close' }).click())
    await elapse(1_000)
    await expect(exported).resolves.toBeUndefined()
    expect(track.mock.calls.filter(([name]) => name.includes('export'))).toEqual([])
  })
})
