import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { heading } from '../../../test/mfa.ts'
import { MfaPasskeySetupScreen } from './MfaPasskeySetupScreen.tsx'

afterEach(cleanup)

describe('MfaPasskeySetupScreen (spec 02 "Passkey setup")', () => {
  it("'Set up passkey verification' with 'Add a new passkey'", () => {
    const onAdd = vi.fn(async () => {})
    render(<MfaPasskeySetupScreen onAdd={onAdd} />)
    expect(heading()).toBe('Set up passkey verification')
    fireEvent.click(screen.getByRole('button', { name: 'Add a new passkey' }))
    expect(onAdd).toHaveBeenCalled()
  })

  it('a refusal shows why; the button comes back', async () => {
    render(
      <MfaPasskeySetupScreen
        onAdd={async () => {
          throw new LatchkeyError('WEBAUTHN_UNSUPPORTED')
        }}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Add a new passkey' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'WebAuthn is not supported in this browser',
    )
    expect(screen.getByRole('button', { name: 'Add a new passkey' })).toBeTruthy()
  })
})
