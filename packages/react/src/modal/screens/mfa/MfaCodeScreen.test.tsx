import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { boxes, elapse, enterCode, heading, paste } from '../../../test/mfa.ts'
import { MfaCodeScreen, type MfaCodeScreenProps } from './MfaCodeScreen.tsx'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

function renderScreen(overrides: Partial<MfaCodeScreenProps> = {}) {
  const props: MfaCodeScreenProps = {
    method: 'totp',
    purpose: 'verify',
    onSubmit: vi.fn(async () => {}),
    onCancel: vi.fn(),
    ...overrides,
  }
  render(<MfaCodeScreen {...props} />)
  return props
}
const alert = () => screen.queryByRole('alert')?.textContent ?? null
const rejecting = (error: LatchkeyError) => vi.fn(async () => Promise.reject(error))

describe('MfaCodeScreen (spec 02 "Multi-factor verification", §5, §8)', () => {
  it('titles verification and enrollment, with a subtitle per method', () => {
    renderScreen()
    expect(heading()).toBe('Enter verification code')
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeTruthy()
    cleanup()
    renderScreen({ method: 'sms', purpose: 'enroll', phone: '•••• 2671' })
    expect(heading()).toBe('Enter enrollment code')
    expect(screen.getByText('Enter the 6-digit code sent to •••• 2671.')).toBeTruthy()
    expect(boxes()).toHaveLength(6)
  })

  it('submits once all six digits are in', async () => {
    const { onSubmit } = renderScreen()
    paste(boxes()[0] as HTMLElement, '12345')
    expect(onSubmit).not.toHaveBeenCalled()
    fireEvent.change(boxes()[5] as HTMLElement, { target: { value: '6' } })
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('123456')
  })

  it("refuses letters with 'Passcode can only be numbers', typed or pasted", () => {
    const { onSubmit } = renderScreen()
    fireEvent.change(boxes()[0] as HTMLElement, { target: { value: 'a' } })
    expect(alert()).toBe('Passcode can only be numbers')
    expect(boxes()[0]?.value).toBe('')
    // A digit clears the message.
    fireEvent.change(boxes()[0] as HTMLElement, { target: { value: '1' } })
    expect(alert()).toBeNull()
    paste(boxes()[1] as HTMLElement, '2x3456')
    expect(alert()).toBe('Passcode can only be numbers')
    expect(boxes().map((b) => b.value)).toEqual(['1', '', '', '', '', ''])
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it("refuses more than six digits with 'Passcode must be exactly 6 numbers'; spaces are stripped", () => {
    const { onSubmit } = renderScreen()
    paste(boxes()[0] as HTMLElement, '1234567')
    expect(alert()).toBe('Passcode must be exactly 6 numbers')
    expect(onSubmit).not.toHaveBeenCalled()
    paste(boxes()[0] as HTMLElement, ' 123 456 ')
    expect(onSubmit).toHaveBeenCalledWith('123456')
  })

  it('Backspace clears the current box and moves back', () => {
    renderScreen()
    paste(boxes()[0] as HTMLElement, '123')
    fireEvent.keyDown(boxes()[3] as HTMLElement, { key: 'Backspace' })
    expect(boxes().map((b) => b.value)).toEqual(['1', '2', '', '', '', ''])
    expect(document.activeElement).toBe(boxes()[2])
  })

  it("a wrong code reads 'The code you entered is not valid', clears the boxes and stays", async () => {
    vi.useFakeTimers()
    const onSubmit = vi
      .fn()
      .mockRejectedValueOnce(new LatchkeyError('MFA_INVALID_CODE'))
      .mockResolvedValueOnce(undefined)
    const { onCancel } = renderScreen({ onSubmit })
    enterCode('111111')
    await elapse()
    expect(alert()).toBe('The code you entered is not valid')
    expect(screen.getByRole('group').getAttribute('data-status')).toBe('error')
    await elapse(1_400)
    expect(boxes().every((b) => b.value === '')).toBe(true)
    expect(alert()).toBe('The code you entered is not valid')
    expect(heading()).toBe('Enter verification code')
    enterCode('222222')
    expect(onSubmit).toHaveBeenLastCalledWith('222222')
    expect(onCancel).not.toHaveBeenCalled()
  })

  it.each([
    [
      'MFA_MAX_ATTEMPTS',
      'You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.',
    ],
    [
      'MFA_TIMEOUT',
      'You have exceeded the time limit for code entry. Please try again in 30 seconds.',
    ],
  ] as const)('%s blocks: the message replaces the boxes, with a Close', async (code, message) => {
    const onClose = vi.fn()
    renderScreen({ onSubmit: rejecting(new LatchkeyError(code)), onClose })
    enterCode()
    expect((await screen.findByRole('alert')).textContent).toBe(message)
    expect(screen.queryAllByRole('textbox')).toHaveLength(0)
    expect(screen.queryByRole('button', { name: 'Choose another method' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalled()
  })

  it("says the server's real wait when it is longer than the spec's 10 seconds", async () => {
    const error = new LatchkeyError('MFA_MAX_ATTEMPTS', undefined, {
      details: { code: 'MFA_MAX_ATTEMPTS', message: 'locked', details: { retry_after: 900 } },
    })
    const { onCancel } = renderScreen({ onSubmit: rejecting(error) })
    enterCode()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You have exceeded the maximum number of attempts. Please close this window and try again in 15 minutes.',
    )
    // Without onClose, Close cancels.
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onCancel).toHaveBeenCalled()
  })

  it('times out after the wait with the MFA_TIMEOUT message (spec 02 §9)', async () => {
    vi.useFakeTimers()
    renderScreen({ waitMs: 300_000 })
    await elapse(299_999)
    expect(boxes()).toHaveLength(6)
    await elapse(1)
    expect(alert()).toBe(
      'You have exceeded the time limit for code entry. Please try again in 30 seconds.',
    )
  })

  it("shows 'Choose another method' only when given, and Cancel", () => {
    const { onCancel } = renderScreen()
    expect(screen.queryByRole('button', { name: 'Choose another method' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onCancel).toHaveBeenCalled()
    cleanup()
    const onChooseAnother = vi.fn()
    renderScreen({ onChooseAnother })
    fireEvent.click(screen.getByRole('button', { name: 'Choose another method' }))
    expect(onChooseAnother).toHaveBeenCalled()
  })

  it("SMS: 'Code sent' for the cooldown, then 'Resend code' sends again", async () => {
    vi.useFakeTimers()
    const onResend = vi.fn(async () => {})
    renderScreen({ method: 'sms', onResend, resendCooldownMs: 30_000 })
    expect(screen.getByRole('status').textContent).toContain('Code sent')
    expect(screen.queryByRole('button', { name: 'Resend code' })).toBeNull()
    await elapse(30_000)
    fireEvent.click(screen.getByRole('button', { name: 'Resend code' }))
    await elapse()
    expect(onResend).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('status').textContent).toContain('Code sent')
  })

  it('SMS verification sends its code on entering, once', async () => {
    vi.useFakeTimers()
    const onResend = vi.fn(async () => {})
    renderScreen({ method: 'sms', onResend, sendOnMount: true })
    await elapse()
    expect(onResend).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('status').textContent).toContain('Code sent')
  })

  it("a refused send says why and offers 'Resend code'", async () => {
    const onResend = vi.fn(async () => {
      throw new LatchkeyError('TOO_MANY_REQUESTS', undefined, { retryAfter: 120 })
    })
    renderScreen({ method: 'sms', onResend, sendOnMount: true })
    expect((await screen.findByRole('alert')).textContent).toMatch(/Try again in 2 minutes\.$/)
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeTruthy()
  })
})
