import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { heading, passkey } from '../../../test/mfa.ts'
import { MfaPasskeyVerifyScreen } from './MfaPasskeyVerifyScreen.tsx'

afterEach(cleanup)

describe('MfaPasskeyVerifyScreen (spec 02 "Passkey verification")', () => {
  it("'Verifying with passkey' starts the prompt on entering and shows when the newest passkey was added", () => {
    const verify = vi.fn(() => new Promise<void>(() => {}))
    render(
      <MfaPasskeyVerifyScreen
        passkeys={[passkey(3), passkey(12), passkey(7)]}
        verify={verify}
        onCancel={() => {}}
      />,
    )
    expect(heading()).toBe('Verifying with passkey')
    expect(verify).toHaveBeenCalledTimes(1)
    const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(2025, 0, 12),
    )
    expect(screen.getByText(`Passkey added on ${date}`)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
  })

  it("after a failure: the reason, 'Try again' and 'Choose another method'", async () => {
    const verify = vi
      .fn()
      .mockRejectedValueOnce(new LatchkeyError('PASSKEY_FAILED'))
      .mockReturnValueOnce(new Promise<void>(() => {}))
    const onChooseAnother = vi.fn()
    render(
      <MfaPasskeyVerifyScreen
        passkeys={[passkey(1)]}
        verify={verify}
        onChooseAnother={onChooseAnother}
        onCancel={() => {}}
      />,
    )
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Passkey request timed out or rejected by user.',
    )
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(verify).toHaveBeenCalledTimes(2)
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Choose another method' }))
    expect(onChooseAnother).toHaveBeenCalled()
  })

  it('too many attempts leaves only Close', async () => {
    const onCancel = vi.fn()
    render(
      <MfaPasskeyVerifyScreen
        passkeys={[]}
        verify={async () => {
          throw new LatchkeyError('MFA_MAX_ATTEMPTS', undefined, { retryAfter: 60 })
        }}
        onChooseAnother={() => {}}
        onCancel={onCancel}
      />,
    )
    expect((await screen.findByRole('alert')).textContent).toMatch(/try again in 1 minute\.$/)
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Choose another method' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onCancel).toHaveBeenCalled()
  })
})
