import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { wireUser } from '../../../test/fake-server.ts'
import { TelegramStatusScreen } from './TelegramStatusScreen.tsx'

afterEach(cleanup)

describe('TelegramStatusScreen (spec 01 §4: three statuses)', () => {
  it('verifying', () => {
    render(<TelegramStatusScreen state={{ status: 'verifying' }} />)
    expect(screen.getByRole('heading').textContent).toBe('Verifying connection to Telegram')
    expect(screen.getByRole('status', { name: 'Verifying connection to Telegram' })).toBeTruthy()
  })

  it('success', async () => {
    const { toUser } = await import('@latchkey/core')
    render(
      <TelegramStatusScreen
        state={{
          status: 'success',
          user: toUser(wireUser('a@b.co', 1) as never),
          isNewUser: false,
        }}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Successfully connected with Telegram')
  })

  it('failure with Retry when retryable', () => {
    const onRetry = vi.fn()
    render(
      <TelegramStatusScreen
        state={{
          status: 'failure',
          error: new LatchkeyError('AUTHENTICATION_FAILED'),
          retryable: true,
        }}
        onRetry={onRetry}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Authentication failed')
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalled()
  })

  it("a second Telegram account: the server's message as detail (spec 01 §8)", () => {
    const message = 'Only one Telegram account can be linked to an account.'
    const error = new LatchkeyError('CANNOT_LINK_MORE_OF_TYPE', message, {
      status: 400,
      serverMessage: message,
    })
    render(
      <TelegramStatusScreen
        state={{ status: 'failure', error, retryable: error.userMessage.retryable === true }}
        onRetry={() => {}}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Authentication failed')
    expect(screen.getByText(message)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  it("failure 'Login with Telegram not allowed.' as detail, without Retry", () => {
    render(
      <TelegramStatusScreen
        state={{
          status: 'failure',
          error: new LatchkeyError('TELEGRAM_NOT_ALLOWED'),
          retryable: false,
        }}
        onRetry={() => {}}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Authentication failed')
    expect(screen.getByText('Login with Telegram not allowed.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })
})
