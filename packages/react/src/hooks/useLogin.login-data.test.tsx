import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyConfig } from '../config.ts'
import type { LoginOptions } from '../instance.ts'
import { renderWithProvider } from '../test/render.tsx'
import { useLatchkey } from './useLatchkey.ts'
import { useLogin } from './useLogin.ts'

// Spec 01 §3 "Login data: prefill, disableSignup, walletChainType,
// loginMethods" and §4 "Login intent: … connect-or-create": what a login()
// call asks of the modal's landing screen.

function Host({ options }: { options: LoginOptions }) {
  const { ready } = useLatchkey()
  const { login } = useLogin()
  if (!ready) return null
  return (
    <button type="button" onClick={() => login(options)}>
      Log in
    </button>
  )
}

async function openWith(options: LoginOptions, config: LatchkeyConfig) {
  renderWithProvider(<Host options={options} />, { config })
  fireEvent.click(await screen.findByRole('button', { name: 'Log in' }))
  await screen.findByRole('heading', { name: 'Log in or sign up' })
}

/** The landing rows' names, in order. */
const rows = () =>
  [...document.querySelectorAll('.lk-option, .lk-input')].map(
    (el) => el.getAttribute('aria-label') ?? el.textContent,
  )

beforeAll(async () => {
  // The modal and the wallet code load lazily; loaded up front, the tests wait on promises only.
  await Promise.all([import('../modal/chunk.ts'), import('@latchkey/core/external')])
})
beforeEach(() => localStorage.clear())
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('login() login data', () => {
  it("loginMethods: this login offers those methods instead of the app's", async () => {
    await openWith({ loginMethods: ['google', 'github'] }, { loginMethods: ['email', 'sms'] })
    expect(rows()).toEqual(['Continue with Google', 'Continue with GitHub'])
  })

  it("intent 'connect-or-create': the wallets come first", async () => {
    await openWith({ intent: 'connect-or-create' }, { loginMethods: ['email', 'wallet'] })
    // The default wallet list (nothing detected) as rows, then email.
    await screen.findByRole('button', { name: 'MetaMask' })
    expect(rows()).toEqual(['MetaMask', 'Coinbase Wallet', 'Rainbow', 'Email address'])
  })
})
