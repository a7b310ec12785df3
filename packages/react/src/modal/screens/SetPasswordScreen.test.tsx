import { COPY_CONFIRM_ICON_MS, COPY_FEEDBACK_MS } from '@latchkey/protocol/constants'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SecureAccountScreen } from './SecureAccountScreen.tsx'
import { SetPasswordScreen } from './SetPasswordScreen.tsx'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

it('started automatically: no Cancel, and it closes itself 1.4 s after Success', async () => {
  vi.useFakeTimers()
  const props = { onSet: vi.fn(), onClose: vi.fn() }
  const setPassword = vi.fn(async () => ({}))
  render(
    <SetPasswordScreen
      request={{ screen: 'set-password', setPassword, automatic: true }}
      {...props}
    />,
  )
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcdef12' } })
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'abcdef12' } })
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull()
  fireEvent.click(screen.getByRole('checkbox'))
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Set Password' })))
  expect(setPassword).toHaveBeenCalledWith('abcdef12')
  expect(screen.getByRole('heading', { name: 'Success' })).toBeTruthy()
  expect(props.onSet).toHaveBeenCalledOnce()
  await act(() => vi.advanceTimersByTimeAsync(1_399))
  expect(props.onClose).not.toHaveBeenCalled()
  await act(() => vi.advanceTimersByTimeAsync(1))
  expect(props.onClose).toHaveBeenCalledOnce()
})

const userStarted = () => ({
  screen: 'set-password' as const,
  setPassword: vi.fn(async () => ({})),
})
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement

describe('Back from the first step (spec 02 §4)', () => {
  it("returns to 'Secure your account' when the user came from the recovery choice", () => {
    render(
      <SecureAccountScreen
        request={{
          screen: 'secure-account',
          mode: 'secure',
          currentMethod: null,
          options: ['google-drive', 'user-passcode'],
          setPassword: vi.fn(),
          setAutomatic: vi.fn(),
          startConsent: vi.fn(),
        }}
        onDone={vi.fn()}
        onClose={vi.fn()}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: /Set a password/ }))
    screen.getByRole('heading', { name: 'Create a password' })
    fireEvent.click(button('Back'))
    screen.getByRole('heading', { name: 'Secure your account' })
  })

  it('has no Back on the first step otherwise (opened directly, or from the splash)', () => {
    render(<SetPasswordScreen request={userStarted()} onSet={vi.fn()} onClose={vi.fn()} />)
    screen.getByRole('heading', { name: 'Create a password' })
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
    cleanup()
    render(
      <SecureAccountScreen
        request={{
          screen: 'secure-account',
          mode: 'secure',
          automatic: true,
          currentMethod: null,
          options: ['user-passcode'],
          setPassword: vi.fn(),
          setAutomatic: vi.fn(),
          startConsent: vi.fn(),
        }}
        onDone={vi.fn()}
        onClose={vi.fn()}
      />,
    )
    fireEvent.click(button('Add password'))
    screen.getByRole('heading', { name: 'Create a password' })
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull()
  })
})

/** Types a valid password and moves on to the step after 'Save your password'. */
function toSave() {
  render(<SetPasswordScreen request={userStarted()} onSet={vi.fn()} onClose={vi.fn()} />)
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcdef12' } })
  fireEvent.click(button('Continue'))
  screen.getByRole('heading', { name: 'Save your password' })
}

it("'Passwords do not match' as soon as the confirmation differs, not only on submit (spec 02 §5)", () => {
  toSave()
  fireEvent.click(button('Continue'))
  const confirm = screen.getByLabelText('Confirm password')
  // The first character already differs from the whole password.
  fireEvent.change(confirm, { target: { value: 'a' } })
  expect(screen.getByRole('alert').textContent).toBe('Passwords do not match')
  expect(button('Continue').disabled).toBe(true)
  fireEvent.change(confirm, { target: { value: 'abcdef1' } })
  expect(screen.getByRole('alert').textContent).toBe('Passwords do not match')
  fireEvent.change(confirm, { target: { value: 'abcdef12' } })
  expect(screen.queryByRole('alert')).toBeNull()
  expect(button('Continue').disabled).toBe(false)
  fireEvent.change(confirm, { target: { value: '' } })
  expect(screen.queryByRole('alert')).toBeNull()
})

it("copy: 'Copied' for 1.5 s, the confirm icon for 2 s (spec 02 §9)", async () => {
  vi.useFakeTimers()
  const writeText = vi.fn(async () => {})
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
  toSave()
  fireEvent.click(button('Copy'))
  await act(() => vi.advanceTimersByTimeAsync(0))
  expect(writeText).toHaveBeenCalledWith('abcdef12')
  expect(button('Copied').dataset.confirmed).toBe('true')
  await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS))
  // The label is back; the check icon stays until 2 s.
  expect(button('Copy').dataset.confirmed).toBe('true')
  await act(() => vi.advanceTimersByTimeAsync(COPY_CONFIRM_ICON_MS - COPY_FEEDBACK_MS - 1))
  expect(button('Copy').dataset.confirmed).toBe('true')
  await act(() => vi.advanceTimersByTimeAsync(1))
  expect(button('Copy').dataset.confirmed).toBeUndefined()
})
