import type { WalletOption } from '@latchkey/core/external'
import { QR_CODE_LARGE_MAX_PX, WALLET_CONNECT_REDIRECT_POLL_MS } from '@latchkey/protocol/constants'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { WalletConnectQr } from './WalletConnectQr.tsx'

// The WalletConnect pairing screen: a large QR code (spec 01 §9: 240 to 280
// px), and on a phone the pairing link opened in a wallet app, checked every
// 500 ms until the page is in front (spec 01 §9 "Wallet-connect redirect poll").

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn'
const OPTION: WalletOption = {
  key: 'wallet_connect',
  id: 'wallet_connect',
  name: 'WalletConnect',
  icon: null,
  chainTypes: ['ethereum'],
  installed: true,
  kind: 'wallet_connect',
}

let visibility: DocumentVisibilityState = 'visible'
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>

const onPhone = () =>
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) Mobile Safari')
const show = () => render(<WalletConnectQr option={OPTION} uri={URI} onBack={() => {}} />)

beforeEach(() => {
  vi.useFakeTimers()
  visibility = 'visible'
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
  assign = vi.fn<(url: string | URL) => void>()
  vi.spyOn(window.location, 'assign').mockImplementation(assign)
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

describe('WalletConnectQr', () => {
  it('draws the pairing URI as a large QR code', () => {
    show()
    const qr = screen.getByRole('img', { name: 'WalletConnect QR code' })
    expect(qr.getAttribute('data-qr-value')).toBe(URI)
    expect(qr.getAttribute('width')).toBe(String(QR_CODE_LARGE_MAX_PX))
  })

  it('on a desktop, opens nothing by itself', async () => {
    show()
    await act(() => vi.advanceTimersByTimeAsync(10 * WALLET_CONNECT_REDIRECT_POLL_MS))
    expect(assign).not.toHaveBeenCalled()
  })

  it('on a phone, opens the pairing link in a wallet app at once when the page is in front', async () => {
    onPhone()
    show()
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(assign).toHaveBeenCalledExactlyOnceWith(URI)
    await act(() => vi.advanceTimersByTimeAsync(10 * WALLET_CONNECT_REDIRECT_POLL_MS))
    expect(assign).toHaveBeenCalledTimes(1)
  })

  it('on a phone with the page in the background, checks every 500 ms and opens it once in front', async () => {
    expect(WALLET_CONNECT_REDIRECT_POLL_MS).toBe(500)
    onPhone()
    visibility = 'hidden'
    show()
    await act(() => vi.advanceTimersByTimeAsync(3 * WALLET_CONNECT_REDIRECT_POLL_MS))
    expect(assign).not.toHaveBeenCalled()
    visibility = 'visible'
    await act(() => vi.advanceTimersByTimeAsync(WALLET_CONNECT_REDIRECT_POLL_MS - 1))
    expect(assign).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(assign).toHaveBeenCalledExactlyOnceWith(URI)
  })

  it('leaving the screen stops the checks', async () => {
    onPhone()
    visibility = 'hidden'
    const { unmount } = show()
    unmount()
    visibility = 'visible'
    await act(() => vi.advanceTimersByTimeAsync(5 * WALLET_CONNECT_REDIRECT_POLL_MS))
    expect(assign).not.toHaveBeenCalled()
  })
})
