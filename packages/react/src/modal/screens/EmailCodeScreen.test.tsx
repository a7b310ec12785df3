import { LatchkeyError } from '@latchkey/core'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { EmailCodeScreen, type EmailCodeScreenProps } from './EmailCodeScreen.tsx'

afterEach(cleanup)

const renderWith = (error: LatchkeyError, channel: EmailCodeScreenProps['channel'] = 'email') =>
  render(
    <EmailCodeScreen
      email="ann@example.com"
      channel={channel}
      appName={null}
      submitting={false}
      error={{ error, step: 'submit' }}
      onSubmitCode={() => {}}
      onResend={async () => true}
      onBack={() => {}}
    />,
  )

const alertText = () => screen.getByRole('alert').textContent

describe('EmailCodeScreen: what a failed code check says (spec 01 §8)', () => {
  it("an email code failure the catalogue does not word reads 'Issue verifying code'", () => {
    renderWith(new LatchkeyError('TIMEOUT'))
    expect(alertText()).toBe('Issue verifying code')
  })

  it("a 400/422 the server explained shows the server's message", () => {
    const message = 'This code was sent to another address.'
    renderWith(
      new LatchkeyError('INTERNAL_ERROR', message, { status: 422, serverMessage: message }),
    )
    expect(alertText()).toBe(message)
  })

  it.each(['sms', 'whatsapp'] as const)('a failed %s verification shows its message', (channel) => {
    renderWith(new LatchkeyError('TIMEOUT'), channel)
    expect(alertText()).toBe(
      'The server took too long to answer. Check your connection and try again.',
    )
  })

  it('a wrong code reads the same on every channel', () => {
    renderWith(new LatchkeyError('INVALID_CODE'), 'sms')
    expect(alertText()).toBe('Invalid or expired verification code')
  })
})
