import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SignMessageRequest } from '../../store.ts'
import { css } from '../styles.ts'
import { SignMessageScreen } from './SignMessageScreen.tsx'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const request = (overrides: Partial<SignMessageRequest> = {}): SignMessageRequest =>
  ({
    screen: 'sign-message',
    method: 'personal_sign',
    data: 'Hello from the test',
    address: '0x1111111111111111111111111111111111111111',
    uiOptions: {},
    sign: vi.fn(async () => '0xsig'),
    ...overrides,
  }) as SignMessageRequest

function renderScreen(req: SignMessageRequest) {
  const props = { onSigned: vi.fn(), onDone: vi.fn(), onCancel: vi.fn() }
  render(<SignMessageScreen request={req} {...props} />)
  return props
}

describe('SignMessageScreen', () => {
  it("shows spec 03's defaults: title, description, the message, 'Sign and continue', no 'Not now'", () => {
    renderScreen(request())
    expect(screen.getByRole('heading', { name: 'Sign message' })).toBeTruthy()
    expect(screen.getByText('Signing this message will not cost you any fees.')).toBeTruthy()
    expect(screen.getByTestId('lk-sign-details').textContent).toBe('Hello from the test')
    expect(screen.getByRole('button', { name: 'Sign and continue' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Not now' })).toBeNull()
  })

  it('caps the details box at 310 px and scrolls it', () => {
    const rule = css.slice(
      css.indexOf('.lk-details {'),
      css.indexOf('}', css.indexOf('.lk-details {')),
    )
    expect(rule).toContain('max-height: 310px')
    expect(rule).toContain('overflow-y: auto')
    renderScreen(request())
    expect(screen.getByTestId('lk-sign-details').className).toBe('lk-details')
  })

  it('Sign and continue → Signing... → Success, reports the signature, and is done 1.4 s later', async () => {
    vi.useFakeTimers()
    let finish: (value: string) => void = () => {}
    const sign = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)))
    const props = renderScreen(request({ sign }))
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    const busy = screen.getByRole('button', { name: 'Signing...' }) as HTMLButtonElement
    expect(busy.disabled).toBe(true)
    await act(async () => finish('0xsig'))
    expect(screen.getByRole('button', { name: 'Success' })).toBeTruthy()
    expect(props.onSigned).toHaveBeenCalledWith('0xsig')
    await act(() => vi.advanceTimersByTimeAsync(1_399))
    expect(props.onDone).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(props.onDone).toHaveBeenCalledOnce()
    expect(sign).toHaveBeenCalledOnce()
  })

  it('applies uiOptions: title, description, buttonText, iconUrl and a Not now button', () => {
    const props = renderScreen(
      request({
        uiOptions: {
          title: 'Prove it is you',
          description: 'No gas needed.',
          buttonText: 'Sign it',
          iconUrl: 'https://example.com/icon.png',
          isCancellable: true,
        },
      }),
    )
    expect(screen.getByRole('heading', { name: 'Prove it is you' })).toBeTruthy()
    expect(screen.getByText('No gas needed.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Sign it' })).toBeTruthy()
    expect(document.querySelector('img')?.getAttribute('src')).toBe('https://example.com/icon.png')
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }))
    expect(props.onCancel).toHaveBeenCalledOnce()
  })

  it("shows typed data's primaryType and its message as JSON (bigints as decimals)", () => {
    renderScreen(
      request({
        method: 'eth_signTypedData_v4',
        data: {
          domain: { name: 'Ether Mail', chainId: 1 },
          types: { Mail: [{ name: 'contents', type: 'string' }] },
          primaryType: 'Mail',
          message: { contents: 'Hello, Bob!', amount: 10n },
        },
      }),
    )
    const details = screen.getByTestId('lk-sign-details')
    expect(details.querySelector('.lk-details-label')?.textContent).toBe('Mail')
    expect(JSON.parse(details.querySelector('pre')?.textContent ?? '')).toEqual({
      contents: 'Hello, Bob!',
      amount: '10',
    })
  })

  it('shows a Solana message as text when it is UTF-8, else as hex', () => {
    renderScreen(
      request({ method: 'solana_signMessage', data: new TextEncoder().encode('gm solana') }),
    )
    expect(screen.getByTestId('lk-sign-details').textContent).toBe('gm solana')
    cleanup()
    renderScreen(request({ method: 'solana_signMessage', data: new Uint8Array([0xff, 0x00]) }))
    expect(screen.getByTestId('lk-sign-details').textContent).toBe('0xff00')
  })

  it("shows the catalogue's message and Retry when signing fails, and signs again on Retry", async () => {
    const sign = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('enclave exploded'))
      .mockRejectedValueOnce(new LatchkeyError('WALLET_PROXY_UNAVAILABLE'))
      .mockResolvedValueOnce('0xsig')
    const props = renderScreen(request({ sign }))
    fireEvent.click(screen.getByRole('button', { name: 'Sign and continue' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to sign message An error has occurred, please try again.',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await screen.findByText('Failed to connect to wallet proxy')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    await screen.findByRole('button', { name: 'Success' })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(props.onSigned).toHaveBeenCalledWith('0xsig')
  })
})
