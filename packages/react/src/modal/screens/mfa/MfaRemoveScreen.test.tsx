import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { heading } from '../../../test/mfa.ts'
import { MfaRemoveScreen } from './MfaRemoveScreen.tsx'

afterEach(cleanup)

describe('MfaRemoveScreen (spec 02 "Removal confirmations")', () => {
  it.each([
    ['sms', 'Remove SMS verification?'],
    ['totp', 'Remove authenticator app verification?'],
    ['passkey', 'Are you sure you want to remove this passkey?'],
  ] as const)('%s: %s', (method, title) => {
    render(<MfaRemoveScreen method={method} onConfirm={async () => {}} onCancel={() => {}} />)
    expect(heading()).toBe(title)
    expect(screen.getByRole('button', { name: 'Remove' }).className).toContain('lk-btn-danger')
  })

  it('Remove confirms; Cancel does not', async () => {
    const onConfirm = vi.fn(async () => {})
    const onCancel = vi.fn()
    render(<MfaRemoveScreen method="sms" onConfirm={onConfirm} onCancel={onCancel} />)
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(onCancel).toHaveBeenCalled()
    expect(onConfirm).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect(onConfirm).toHaveBeenCalled()
  })

  it("a refusal shows the catalogue's words and stays", async () => {
    render(
      <MfaRemoveScreen
        method="totp"
        onConfirm={async () => {
          throw new LatchkeyError('MFA_NOT_ENROLLED')
        }}
        onCancel={() => {}}
      />,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This verification method is not set up. Choose another method.',
    )
    expect(screen.getByRole('button', { name: 'Remove' })).toBeTruthy()
  })

  it('says how many passkeys leave verification', () => {
    render(
      <MfaRemoveScreen
        method="passkey"
        passkeyCount={3}
        onConfirm={async () => {}}
        onCancel={() => {}}
      />,
    )
    expect(
      screen.getByText('Your 3 passkeys will no longer be used for verification.'),
    ).toBeTruthy()
  })
})
