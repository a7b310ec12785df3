import type { PasskeyAccount } from '@latchkey/core'
import { act, createEvent, fireEvent, screen } from '@testing-library/react'
import { vi } from 'vitest'

/** A linked passkey, added (and last verified) on 2025-01-n. */
export const passkey = (n: number, overrides: Partial<PasskeyAccount> = {}): PasskeyAccount => ({
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
export const passkeys = (count: number, overrides: Partial<PasskeyAccount> = {}) =>
  Array.from({ length: count }, (_, i) => passkey(i + 1, overrides))

export const boxes = () => screen.getAllByRole('textbox', { name: /^Digit/ }) as HTMLInputElement[]

export function paste(element: HTMLElement, text: string) {
  fireEvent(element, createEvent.paste(element, { clipboardData: { getData: () => text } }))
}

/** Pastes a full code into the first box (the screen submits it). */
export const enterCode = (code = '123456') => paste(boxes()[0] as HTMLElement, code)

/** Lets pending promises and React updates settle under fake timers. */
export const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))

export const heading = () => screen.getByRole('heading').textContent
