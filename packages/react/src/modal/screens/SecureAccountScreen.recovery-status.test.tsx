import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SecureAccountRequest } from '../../store.ts'
import { SecureAccountScreen } from './SecureAccountScreen.tsx'

afterEach(cleanup)

function show(currentMethod: RecoveryMethod | null, mode: SecureAccountRequest['mode'] = 'update') {
  render(
    <SecureAccountScreen
      request={{
        screen: 'secure-account',
        mode,
        currentMethod,
        options: ['google-drive', 'user-passcode', 'latchkey'],
        setPassword: vi.fn(),
        setAutomatic: vi.fn(),
        startConsent: vi.fn(),
      }}
      onDone={vi.fn()}
      onClose={vi.fn()}
    />,
  )
  const panel = screen.getByTestId('recovery-status')
  // The spec's explainer heading stays in every state.
  expect(panel.querySelector('strong')?.textContent).toBe('Why is this necessary?')
  return panel.textContent ?? ''
}

describe('the backup-options panel says what the current recovery means (issue 16, item 5)', () => {
  it('automatic: recoverable by logging in, the server holds the key, never "losing this device"', () => {
    const text = show('latchkey')
    expect(screen.getByRole('heading', { name: 'Update backup method' })).toBeTruthy()
    expect(text).toContain('Your wallet is recoverable now')
    expect(text).toContain("this app's server holds its recovery key")
    expect(text).toContain('A password or a cloud backup makes recovery yours alone.')
    expect(text).not.toMatch(/losing/i)
  })

  it('no recovery yet: losing the device loses the wallet', () => {
    const text = show(null, 'secure')
    expect(screen.getByRole('heading', { name: 'Secure your account' })).toBeTruthy()
    expect(text).toContain('Without a backup, losing this device means losing your wallet.')
  })

  it('a password: says the password restores it', () => {
    const text = show('user-passcode')
    expect(text).toContain('protected by your password')
    expect(text).not.toMatch(/losing|automatically/i)
    expect(screen.getByRole('button', { name: 'Reset password' })).toBeTruthy()
  })

  it('a cloud backup: names the provider', () => {
    expect(show('google-drive')).toContain('backed up to Google Drive')
    cleanup()
    expect(show('icloud')).toContain('backed up to iCloud')
  })
})
