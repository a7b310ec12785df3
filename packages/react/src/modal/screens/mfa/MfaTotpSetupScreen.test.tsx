import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { elapse, heading } from '../../../test/mfa.ts'
import { MASKED_KEY, MfaTotpSetupScreen } from './MfaTotpSetupScreen.tsx'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const secret = 'JBSWY3DPEHPK3PXP'
const authUrl = `otpauth://totp/Acme:ada%40example.com?secret=${secret}&issuer=Acme`

describe('MfaTotpSetupScreen (spec 02 "Authenticator enrollment")', () => {
  it("'Scan QR code' draws the setup URI as a 240 px QR code", () => {
    render(<MfaTotpSetupScreen secret={secret} authUrl={authUrl} onContinue={() => {}} />)
    expect(heading()).toBe('Scan QR code')
    const qr = screen.getByRole('img', { name: 'QR code for your authenticator app' })
    expect(qr.getAttribute('width')).toBe('240')
    expect(qr.getAttribute('height')).toBe('240')
    expect(qr.getAttribute('data-qr-value')).toBe(authUrl)
  })

  it('masks the setup key until shown; copies it either way', async () => {
    vi.useFakeTimers()
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    render(<MfaTotpSetupScreen secret={secret} authUrl={authUrl} onContinue={() => {}} />)
    const key = screen.getByTestId('totp-secret')
    expect(key.textContent).toBe(MASKED_KEY)
    expect(document.body.textContent).not.toContain(secret)

    fireEvent.click(screen.getByRole('button', { name: 'Copy setup key' }))
    await elapse()
    expect(writeText).toHaveBeenCalledWith(secret)
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy()
    await elapse(1_500)
    expect(screen.getByRole('button', { name: 'Copy setup key' })).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Show setup key' }))
    expect(key.textContent).toBe(secret)
    fireEvent.click(screen.getByRole('button', { name: 'Hide setup key' }))
    expect(key.textContent).toBe(MASKED_KEY)
  })

  it('Continue moves on; Back goes back', () => {
    const onContinue = vi.fn()
    const onBack = vi.fn()
    render(
      <MfaTotpSetupScreen
        secret={secret}
        authUrl={authUrl}
        onContinue={onContinue}
        onBack={onBack}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(onContinue).toHaveBeenCalled()
    expect(onBack).toHaveBeenCalled()
  })
})
