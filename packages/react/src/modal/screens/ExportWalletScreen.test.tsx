import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ExportWalletRequest } from '../../store.ts'
import { ExportWalletScreen } from './ExportWalletScreen.tsx'

afterEach(cleanup)

const ENCLAVE = 'https://auth.example.com'
const request: ExportWalletRequest = {
  screen: 'export-wallet',
  url: `${ENCLAVE}/apps/app/embedded-wallets/export`,
  init: {
    access_token: 'token',
    entropy_id: '0x1111111111111111111111111111111111111111',
    chain_type: 'ethereum',
    wallet_index: 0,
    theme: 'light',
  },
}

function show() {
  const props = { onExported: vi.fn(), onClose: vi.fn() }
  render(<ExportWalletScreen request={request} {...props} />)
  const frame = screen.getByTitle('Export your wallet') as HTMLIFrameElement
  // happy-dom loads no frame: stand in for the enclave page's window.
  const frameWindow = { postMessage: vi.fn() }
  Object.defineProperty(frame, 'contentWindow', { value: frameWindow })
  /** A message as the frame (or anyone else) would post it to this page. */
  const post = (data: unknown, from: { origin?: string; source?: unknown } = {}) =>
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data,
          origin: from.origin ?? ENCLAVE,
          source: ('source' in from ? from.source : frameWindow) as Window,
        }),
      )
    })
  return { ...props, post, frameWindow }
}

describe('ExportWalletScreen: Escape inside the enclave frame (issue 16, item 7a)', () => {
  it("closes on the frame's latchkey:export:escape", () => {
    const h = show()
    h.post({ event: 'latchkey:export:escape' })
    expect(h.onClose).toHaveBeenCalledOnce()
    expect(h.onExported).not.toHaveBeenCalled()
  })

  it('ignores it from another origin or another window, as the enclave bridge does', () => {
    const h = show()
    h.post({ event: 'latchkey:export:escape' }, { origin: 'https://evil.example' })
    h.post({ event: 'latchkey:export:escape' }, { origin: `${ENCLAVE}.evil.example` })
    h.post({ event: 'latchkey:export:escape' }, { source: window })
    h.post({ event: 'latchkey:export:escape' }, { source: null })
    expect(h.onClose).not.toHaveBeenCalled()
    // The same frame and origin still work afterwards.
    h.post({ event: 'latchkey:export:escape' })
    expect(h.onClose).toHaveBeenCalledOnce()
  })
})

describe('ExportWalletScreen: errors from the export page', () => {
  it("a session the page finds missing reads 'User must be authenticated before exporting their wallet' (spec 03 §8)", () => {
    const h = show()
    h.post({ event: 'latchkey:export:error', data: { code: 'NOT_AUTHENTICATED' } })
    expect(screen.getByRole('alert').textContent).toBe(
      'User must be authenticated before exporting their wallet',
    )
  })

  it("passes each copy's kind to the request and reports the export", () => {
    const onCopied = vi.fn()
    const props = { onExported: vi.fn(), onClose: vi.fn() }
    render(<ExportWalletScreen request={{ ...request, onCopied }} {...props} />)
    const frame = screen.getByTitle('Export your wallet') as HTMLIFrameElement
    const frameWindow = { postMessage: vi.fn() }
    Object.defineProperty(frame, 'contentWindow', { value: frameWindow })
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { event: 'latchkey:export:copied', data: { what: 'private_key' } },
          origin: ENCLAVE,
          source: frameWindow as unknown as Window,
        }),
      )
    })
    expect(onCopied).toHaveBeenCalledWith('private_key')
    expect(props.onExported).toHaveBeenCalledOnce()
  })
})
