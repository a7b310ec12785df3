import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { heading } from '../../../test/mfa.ts'
import { MfaMethodListScreen, type MfaMethodListScreenProps } from './MfaMethodListScreen.tsx'

afterEach(cleanup)

function renderScreen(overrides: Partial<MfaMethodListScreenProps> = {}) {
  const props: MfaMethodListScreenProps = {
    allowedMethods: ['sms', 'totp', 'passkey'],
    enabledMethods: [],
    smsUnavailable: false,
    onChoose: vi.fn(),
    onRemove: vi.fn(),
    onDone: vi.fn(),
    ...overrides,
  }
  render(<MfaMethodListScreen {...props} />)
  return props
}
const rows = () =>
  within(screen.getByRole('list', { name: 'Verification methods' })).getAllByRole('listitem')

describe('MfaMethodListScreen (spec 02 / 03 method list)', () => {
  it("'Choose a verification method': passkey, authenticator app, SMS, each Enabled or Disabled", () => {
    renderScreen({ enabledMethods: ['totp'] })
    expect(heading()).toBe('Choose a verification method')
    expect(rows().map((row) => row.textContent)).toEqual([
      'PasskeyDisabled',
      'Authenticator appEnabled',
      'SMSDisabled',
    ])
  })

  it("lists only the app's methods", () => {
    renderScreen({ allowedMethods: ['sms', 'totp'] })
    expect(rows()).toHaveLength(2)
    expect(screen.queryByText('Passkey')).toBeNull()
  })

  it("'Add more security' when the app allows none", () => {
    const { onDone } = renderScreen({ allowedMethods: [] })
    expect(heading()).toBe('Add more security')
    expect(screen.queryByRole('list')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(onDone).toHaveBeenCalled()
  })

  it('a disabled method is chosen; an enabled one carries the remove icon', () => {
    const { onChoose, onRemove } = renderScreen({ enabledMethods: ['sms'] })
    fireEvent.click(screen.getByRole('button', { name: /^Authenticator app/ }))
    expect(onChoose).toHaveBeenCalledWith('totp')
    expect(screen.queryByRole('button', { name: /^SMS/ })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Remove Passkey' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Remove SMS' }))
    expect(onRemove).toHaveBeenCalledWith('sms')
  })

  it('SMS is disabled, with the reason, while the phone is a login method', () => {
    const { onChoose } = renderScreen({ smsUnavailable: true })
    const sms = screen.getByRole('button', { name: /^SMS/ }) as HTMLButtonElement
    expect(sms.disabled).toBe(true)
    expect(sms.textContent).toContain('This phone number is a login method')
    fireEvent.click(sms)
    expect(onChoose).not.toHaveBeenCalled()
  })

  it('an enabled passkey stays choosable when more passkeys can be enabled', () => {
    const { onChoose } = renderScreen({ enabledMethods: ['passkey'], alsoChoosable: ['passkey'] })
    fireEvent.click(screen.getByRole('button', { name: /^Passkey/ }))
    expect(onChoose).toHaveBeenCalledWith('passkey')
  })

  it('shows a failure and waits while a method starts', () => {
    renderScreen({ busy: 'totp', error: 'Could not reach the server' })
    expect(screen.getByRole('alert').textContent).toBe('Could not reach the server')
    expect(screen.getByRole('status', { name: 'Setting up Authenticator app' })).toBeTruthy()
    expect((screen.getByRole('button', { name: /^Passkey/ }) as HTMLButtonElement).disabled).toBe(
      true,
    )
  })
})
