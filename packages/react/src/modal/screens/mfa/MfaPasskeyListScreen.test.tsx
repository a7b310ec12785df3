import { LatchkeyError } from '@latchkey/core'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { heading, passkey, passkeys } from '../../../test/mfa.ts'
import { MfaPasskeyListScreen, type MfaPasskeyListScreenProps } from './MfaPasskeyListScreen.tsx'

afterEach(cleanup)

function renderScreen(overrides: Partial<MfaPasskeyListScreenProps> = {}) {
  const props: MfaPasskeyListScreenProps = {
    passkeys: passkeys(2),
    onEnable: vi.fn(async () => {}),
    onAdd: vi.fn(async () => passkey(9)),
    ...overrides,
  }
  const view = render(<MfaPasskeyListScreen {...props} />)
  return { props, view }
}
const rows = () =>
  within(screen.getByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem')
const checkbox = (name: RegExp) => screen.getByRole('checkbox', { name }) as HTMLInputElement
const enable = () => screen.getByRole('button', { name: 'Enable passkeys' }) as HTMLButtonElement

describe('MfaPasskeyListScreen (spec 02 "Passkey setup", "Passkey management")', () => {
  it("'Enable your passkeys for verification': name, browser and OS, last verified", () => {
    renderScreen({
      passkeys: [
        passkey(1, { authenticatorName: 'iCloud Keychain', createdWithBrowser: 'Safari' }),
      ],
    })
    expect(heading()).toBe('Enable your passkeys for verification')
    const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(2025, 0, 1),
    )
    expect(rows()[0]?.textContent).toContain('iCloud Keychain')
    expect(rows()[0]?.textContent).toContain('Safari on macOS')
    expect(rows()[0]?.textContent).toContain(`Last verified ${date}`)
  })

  it("shows 3 without 'View All'", () => {
    renderScreen({ passkeys: passkeys(3) })
    expect(rows()).toHaveLength(3)
    expect(screen.queryByRole('button', { name: 'View All' })).toBeNull()
  })

  it("shows 2 when more than 3 exist, then all after 'View All'", () => {
    renderScreen({ passkeys: passkeys(5) })
    expect(rows()).toHaveLength(2)
    fireEvent.click(screen.getByRole('button', { name: 'View All' }))
    expect(rows()).toHaveLength(5)
    expect(screen.queryByRole('button', { name: 'View All' })).toBeNull()
  })

  it('enables the checked passkeys; enabled ones show as such', async () => {
    const { props } = renderScreen({
      passkeys: [passkey(1, { enrolledInMfa: true }), passkey(2), passkey(3)],
    })
    expect(checkbox(/Key 1/).checked).toBe(true)
    expect(checkbox(/Key 1/).disabled).toBe(true)
    expect(rows()[0]?.textContent).toContain('Enabled')
    expect(enable().disabled).toBe(true)
    fireEvent.click(checkbox(/Key 3/))
    fireEvent.click(enable())
    expect(props.onEnable).toHaveBeenCalledWith(['cred-3'])
  })

  it("'Add new passkey' adds one and checks it once the list has it", async () => {
    const { props, view } = renderScreen()
    fireEvent.click(screen.getByRole('button', { name: 'Add new passkey' }))
    expect(props.onAdd).toHaveBeenCalled()
    // The parent refreshes the user: the new passkey arrives in props.
    await screen.findByRole('button', { name: 'Add new passkey' })
    view.rerender(<MfaPasskeyListScreen {...props} passkeys={[...passkeys(2), passkey(9)]} />)
    expect(checkbox(/Key 9/).checked).toBe(true)
    fireEvent.click(enable())
    expect(props.onEnable).toHaveBeenCalledWith(['cred-9'])
  })

  it("a refused prompt shows the catalogue's words", async () => {
    renderScreen({
      onAdd: vi.fn(async () => {
        throw new LatchkeyError('PASSKEY_FAILED')
      }),
    })
    fireEvent.click(screen.getByRole('button', { name: 'Add new passkey' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Passkey request timed out or rejected by user.',
    )
  })
})
