import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { SetPasswordScreen } from './SetPasswordScreen.tsx'

// Spec 02 §8: a "create with a password" flow whose wallet was made but whose
// password step failed (core WALLET_PASSWORD_NOT_SET) says so under the
// wizard's 'Something went wrong'.

afterEach(cleanup)

it("shows 'User created a wallet but failed to set a password for it' and offers no Success", async () => {
  const setPassword = vi.fn(async () => {
    throw new LatchkeyError('WALLET_PASSWORD_NOT_SET', undefined, {
      cause: new LatchkeyError('WALLET_PROXY_DISCONNECTED'),
    })
  })
  const onSet = vi.fn()
  render(
    <SetPasswordScreen
      request={{ screen: 'set-password', setPassword, automatic: true }}
      onSet={onSet}
      onClose={vi.fn()}
    />,
  )
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abcdef12' } })
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'abcdef12' } })
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
  fireEvent.click(screen.getByRole('checkbox'))
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Set Password' })))
  expect(setPassword).toHaveBeenCalledWith('abcdef12')
  screen.getByRole('heading', { name: 'Something went wrong' })
  screen.getByText('User created a wallet but failed to set a password for it')
  expect(onSet).not.toHaveBeenCalled()
})
