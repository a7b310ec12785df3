import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { boxes, elapse, enterCode, heading, passkey } from '../../../test/mfa.ts'
import { ChromeContext } from '../../components/chrome.ts'
import { MfaVerifyFlow } from './MfaVerifyFlow.tsx'
import type { MfaVerifyProps } from './types.ts'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

function renderFlow(overrides: Partial<MfaVerifyProps> = {}) {
  const props: MfaVerifyProps = {
    methods: ['passkey', 'sms', 'totp'],
    passkeys: [passkey(1, { enrolledInMfa: true })],
    phoneHint: '•••• 2671',
    sendSmsCode: vi.fn(async () => {}),
    submitCode: vi.fn(async () => {}),
    verifyWithPasskey: vi.fn(() => new Promise<void>(() => {})),
    onCancel: vi.fn(),
    ...overrides,
  }
  render(
    <ChromeContext.Provider value={{ titleId: 't', onClose: () => {} }}>
      <MfaVerifyFlow {...props} />
    </ChromeContext.Provider>,
  )
  return props
}
const options = () => screen.getAllByRole('button').filter((b) => b.className === 'lk-option')

describe('MfaVerifyFlow (spec 02 "Multi-factor verification", §4)', () => {
  it("several methods: 'Verify your identity' offers authenticator app, SMS, passkey in that order", () => {
    renderFlow()
    expect(heading()).toBe('Verify your identity')
    expect(screen.getByText('Choose a verification method')).toBeTruthy()
    expect(options().map((o) => o.textContent)).toEqual(['Authenticator app', 'SMS', 'Passkey'])
  })

  it("offers only the user's methods", () => {
    renderFlow({ methods: ['passkey', 'totp'] })
    expect(options().map((o) => o.textContent)).toEqual(['Authenticator app', 'Passkey'])
  })

  it('one method: straight to its code screen, without "Choose another method"', async () => {
    const { submitCode } = renderFlow({ methods: ['totp'] })
    expect(heading()).toBe('Enter verification code')
    expect(screen.queryByRole('button', { name: 'Choose another method' })).toBeNull()
    enterCode('654321')
    expect(submitCode).toHaveBeenCalledWith('totp', '654321')
  })

  it('SMS alone sends its code on entering, to the masked phone', async () => {
    vi.useFakeTimers()
    const { sendSmsCode, submitCode } = renderFlow({ methods: ['sms'] })
    await elapse()
    expect(sendSmsCode).toHaveBeenCalledTimes(1)
    expect(screen.getByText('Enter the 6-digit code sent to •••• 2671.')).toBeTruthy()
    enterCode()
    expect(submitCode).toHaveBeenCalledWith('sms', '123456')
  })

  it('a passkey alone starts its prompt at once', () => {
    const { verifyWithPasskey } = renderFlow({ methods: ['passkey'] })
    expect(heading()).toBe('Verifying with passkey')
    expect(verifyWithPasskey).toHaveBeenCalledTimes(1)
  })

  it("'Choose another method' returns to the chooser", () => {
    renderFlow()
    fireEvent.click(screen.getByRole('button', { name: 'Authenticator app' }))
    expect(boxes()).toHaveLength(6)
    fireEvent.click(screen.getByRole('button', { name: 'Choose another method' }))
    expect(heading()).toBe('Verify your identity')
    fireEvent.click(screen.getByRole('button', { name: 'Passkey' }))
    expect(heading()).toBe('Verifying with passkey')
    fireEvent.click(screen.getByRole('button', { name: 'Choose another method' }))
    expect(heading()).toBe('Verify your identity')
  })

  it('Cancel, the close icon and Close after a blocking error all cancel', async () => {
    const { onCancel } = renderFlow({
      methods: ['totp'],
      submitCode: vi.fn(async () => {
        throw new LatchkeyError('MFA_MAX_ATTEMPTS')
      }),
    })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onCancel).toHaveBeenCalledTimes(2)
    enterCode()
    await screen.findByRole('alert')
    // The close icon and the Close under the message.
    for (const close of screen.getAllByRole('button', { name: 'Close' })) fireEvent.click(close)
    expect(onCancel).toHaveBeenCalledTimes(4)
  })
})
