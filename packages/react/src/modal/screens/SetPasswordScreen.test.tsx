import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
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
