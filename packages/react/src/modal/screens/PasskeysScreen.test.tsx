import { LatchkeyError, type PasskeyAccount, type User } from '@latchkey/core'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ManagePasskeysRequest } from '../../store.ts'
import { PasskeysScreen } from './PasskeysScreen.tsx'

afterEach(cleanup)

const passkey = (n: number, overrides: Partial<PasskeyAccount> = {}): PasskeyAccount => ({
  type: 'passkey',
  credentialId: `cred-${n}`,
  authenticatorName: `Key ${n}`,
  createdWithBrowser: 'Chrome',
  createdWithOs: 'macOS',
  createdWithDevice: null,
  enrolledInMfa: false,
  verifiedAt: new Date(2025, 0, n),
  firstVerifiedAt: new Date(2025, 0, n),
  latestVerifiedAt: new Date(2025, 0, n),
  ...overrides,
})
const userWith = (passkeys: PasskeyAccount[]) =>
  ({ id: 'did:latchkey:user1', linkedAccounts: passkeys }) as unknown as User
const many = (count: number) => Array.from({ length: count }, (_, i) => passkey(i + 1))

function renderScreen(request: Partial<ManagePasskeysRequest> = {}) {
  const onDone = vi.fn()
  const full: ManagePasskeysRequest = {
    screen: 'passkeys',
    passkeys: [],
    link: vi.fn(async () => userWith([passkey(1)])),
    unlink: vi.fn(async () => userWith([])),
    ...request,
  }
  render(<PasskeysScreen request={full} onDone={onDone} />)
  return { request: full, onDone }
}
const rows = () =>
  within(screen.getByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem')

describe('PasskeysScreen (spec 02 "Passkey management")', () => {
  it("with none yet: 'Secure your account with a passkey' and 'Add new passkey'", () => {
    renderScreen()
    expect(screen.getByRole('heading').textContent).toBe('Secure your account with a passkey')
    expect(screen.getByRole('button', { name: 'Add new passkey' })).toBeTruthy()
    expect(screen.queryByRole('list')).toBeNull()
  })

  it('shows name, browser and OS, and the last-verified date of each passkey', () => {
    renderScreen({
      passkeys: [
        passkey(1, { authenticatorName: 'iCloud Keychain', createdWithBrowser: 'Safari' }),
        passkey(2, { authenticatorName: null, createdWithBrowser: null, createdWithOs: null }),
      ],
    })
    const [first, second] = rows()
    expect(first?.textContent).toContain('iCloud Keychain')
    expect(first?.textContent).toContain('Safari on macOS')
    const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(
      new Date(2025, 0, 1),
    )
    expect(first?.textContent).toContain(`Last verified ${date}`)
    expect(second?.textContent).toContain('Passkey')
  })

  it("shows 2, then all after 'View all'", () => {
    renderScreen({ passkeys: many(4) })
    expect(rows()).toHaveLength(2)
    fireEvent.click(screen.getByRole('button', { name: 'View all' }))
    expect(rows()).toHaveLength(4)
    expect(screen.queryByRole('button', { name: 'View all' })).toBeNull()
  })

  it("no 'View all' with 2 or fewer", () => {
    renderScreen({ passkeys: many(2) })
    expect(screen.queryByRole('button', { name: 'View all' })).toBeNull()
  })

  it("adds a passkey: the list follows, the title reads 'Passkeys updated', Done finishes", async () => {
    const { request, onDone } = renderScreen()
    fireEvent.click(screen.getByRole('button', { name: 'Add new passkey' }))
    expect(await screen.findByRole('heading', { name: 'Passkeys updated' })).toBeTruthy()
    expect(request.link).toHaveBeenCalledTimes(1)
    expect(rows()).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    expect(onDone).toHaveBeenCalled()
  })

  it('unlinks after a confirmation', async () => {
    const { request } = renderScreen({
      passkeys: many(2),
      unlink: vi.fn(async () => userWith([passkey(2)])),
    })
    fireEvent.click(screen.getAllByRole('button', { name: /^Unlink Key 1/ })[0] as HTMLElement)
    expect(screen.getByText('Are you sure you want to remove this passkey?')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect(await screen.findByRole('heading', { name: 'Passkeys updated' })).toBeTruthy()
    expect(request.unlink).toHaveBeenCalledWith('cred-1')
    expect(rows()).toHaveLength(1)
  })

  it("Cancel keeps the passkey; a refused unlink shows the server's words", async () => {
    renderScreen({
      passkeys: [passkey(1, { enrolledInMfa: true })],
      unlink: vi.fn(async () => {
        throw new LatchkeyError('PASSKEY_ENROLLED_IN_MFA')
      }),
    })
    fireEvent.click(screen.getByRole('button', { name: /^Unlink Key 1/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByText('Are you sure you want to remove this passkey?')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: /^Unlink Key 1/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Cannot unlink a passkey enrolled in MFA',
    )
    expect(screen.getByRole('heading').textContent).toBe('Secure your account with a passkey')
  })

  it('unlinking the only login method says what to do instead (issue 16, 4a)', async () => {
    renderScreen({
      passkeys: many(1),
      unlink: vi.fn(async () => {
        throw new LatchkeyError('CANNOT_UNLINK_LAST_ACCOUNT')
      }),
    })
    fireEvent.click(screen.getByRole('button', { name: /^Unlink/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      "You can't remove your only login method. Link another login method first.",
    )
  })

  it('a device that already holds one of the passkeys says so, not "rejected" (issue 16, 4b)', async () => {
    renderScreen({
      passkeys: many(1),
      link: vi.fn(async () => {
        throw new LatchkeyError('PASSKEY_ALREADY_LINKED')
      }),
    })
    fireEvent.click(screen.getByRole('button', { name: 'Add new passkey' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This passkey is already linked. Use another device or security key.',
    )
  })

  it("at 5 passkeys there is no 'Add new passkey', only the limit", () => {
    renderScreen({ passkeys: many(5) })
    expect(screen.queryByRole('button', { name: 'Add new passkey' })).toBeNull()
    expect(screen.getByText('Cannot link more passkeys to account.')).toBeTruthy()
  })

  it("a refused prompt shows the catalogue's words and keeps 'Add new passkey'", async () => {
    renderScreen({
      passkeys: many(1),
      link: vi.fn(async () => {
        throw new LatchkeyError('PASSKEY_FAILED')
      }),
    })
    fireEvent.click(screen.getByRole('button', { name: 'Add new passkey' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Passkey request timed out or rejected by user.',
    )
    expect(screen.getByRole('button', { name: 'Add new passkey' })).toBeTruthy()
  })
})
