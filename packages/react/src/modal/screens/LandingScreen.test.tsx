import type { WalletOption } from '@latchkey/core/external'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type LatchkeyConfig, resolveConfig } from '../../config.ts'
import { appConfig } from '../../test/fake-server.ts'
import { LandingScreen, type LandingScreenProps, type LandingWallets } from './LandingScreen.tsx'

afterEach(cleanup)

function renderLanding(host: LatchkeyConfig = {}, props: Partial<LandingScreenProps> = {}) {
  const config = resolveConfig(host, appConfig())
  return render(
    <LandingScreen
      config={config}
      recentMethod={null}
      email={{ onSubmit: vi.fn(), sending: false, error: null, onEdit: vi.fn() }}
      {...props}
    />,
  )
}

describe('LandingScreen', () => {
  it("shows the default header 'Log in or sign up'", () => {
    renderLanding()
    expect(screen.getByRole('heading', { name: 'Log in or sign up' })).toBeTruthy()
  })

  it('shows the configured landing header', () => {
    renderLanding({ appearance: { landingHeader: 'Welcome to Acme' } })
    expect(screen.getByRole('heading', { name: 'Welcome to Acme' })).toBeTruthy()
  })

  it('cuts the login message to 100 characters', () => {
    const message = `${'a'.repeat(100)}TAIL`
    renderLanding({ appearance: { loginMessage: message } })
    expect(screen.getByText('a'.repeat(100))).toBeTruthy()
    expect(screen.queryByText(/TAIL/)).toBeNull()
  })

  it("puts a 'Recent' chip on the method last used", () => {
    const { unmount } = renderLanding({}, { recentMethod: 'email' })
    expect(screen.getByText('Recent')).toBeTruthy()
    unmount()
    renderLanding({}, { recentMethod: null })
    expect(screen.queryByText('Recent')).toBeNull()
  })

  it('shows the legal footer with links when terms acceptance is not required', () => {
    renderLanding({
      legal: {
        termsAndConditionsUrl: 'https://acme.test/terms',
        privacyPolicyUrl: 'https://acme.test/privacy',
      },
    })
    expect(screen.getByText(/By logging in I agree to the/)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe(
      'https://acme.test/terms',
    )
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      'https://acme.test/privacy',
    )
    expect(screen.getByText('Latchkey')).toBeTruthy()
  })

  it("reads 'By logging in I agree to the Terms / Privacy Policy' word for word", () => {
    renderLanding({
      legal: {
        termsAndConditionsUrl: 'https://acme.test/terms',
        privacyPolicyUrl: 'https://acme.test/privacy',
      },
    })
    expect(document.querySelector('.lk-legal')?.textContent).toBe(
      'By logging in I agree to the Terms / Privacy Policy',
    )
  })

  it("hides the legal line and 'Protected by' when the app requires terms acceptance", () => {
    renderLanding({
      legal: { termsAndConditionsUrl: 'https://acme.test/terms', requireUsersAcceptTerms: true },
    })
    expect(screen.queryByText(/By logging in/)).toBeNull()
    expect(screen.queryByText(/Protected by/)).toBeNull()
  })

  it('legal.alwaysShowFooter forces the footer; a part without a URL is plain text', () => {
    renderLanding({
      legal: {
        privacyPolicyUrl: 'https://acme.test/privacy',
        requireUsersAcceptTerms: true,
        alwaysShowFooter: true,
      },
    })
    expect(document.querySelector('.lk-legal')?.textContent).toBe(
      'By logging in I agree to the Terms / Privacy Policy',
    )
    expect(screen.queryByRole('link', { name: 'Terms' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toBeTruthy()
    expect(screen.getByText(/Protected by/)).toBeTruthy()
  })

  it('a forced footer without any URL still reads in full', () => {
    renderLanding({ legal: { alwaysShowFooter: true } })
    expect(document.querySelector('.lk-legal')?.textContent).toBe(
      'By logging in I agree to the Terms / Privacy Policy',
    )
    expect(screen.queryByRole('link')).toBeNull()
  })

  it('hides the legal footer when terms must be accepted, and the branding on request', () => {
    renderLanding({
      legal: { termsAndConditionsUrl: 'https://acme.test/terms', requireUsersAcceptTerms: true },
      appearance: { showLatchkeyBranding: false },
    })
    expect(screen.queryByText(/By logging in/)).toBeNull()
    expect(screen.queryByText(/Protected by/)).toBeNull()
  })

  it('shows the app logo when one is configured', () => {
    renderLanding({ appearance: { logo: 'https://acme.test/logo.png' } })
    expect(screen.getByRole('img').getAttribute('src')).toBe('https://acme.test/logo.png')
  })

  it("hideDirectWeb2Inputs turns the email input into a 'Continue with email' button", () => {
    const onMethod = vi.fn()
    renderLanding({ appearance: { hideDirectWeb2Inputs: true } }, { onMethod })
    expect(screen.queryByRole('textbox')).toBeNull()
    screen.getByRole('button', { name: 'Continue with email' }).click()
    expect(onMethod).toHaveBeenCalledWith('email')
  })
})

describe('LandingScreen: passkeys (spec 01 §2 "an optional passkey login button")', () => {
  it("puts 'Log in with a passkey' under the rows when passkey login is on", () => {
    const onMethod = vi.fn()
    renderLanding({ loginMethods: ['email', 'google', 'passkey'] }, { onMethod })
    expect(screen.queryByRole('button', { name: 'Continue with a passkey' })).toBeNull()
    screen.getByRole('button', { name: 'Log in with a passkey' }).click()
    expect(onMethod).toHaveBeenCalledWith('passkey')
  })

  it('draws no passkey button when passkey login is off', () => {
    renderLanding({ loginMethods: ['email', 'google'] })
    expect(screen.queryByRole('button', { name: /passkey/ })).toBeNull()
  })

  it("is a 'Continue with a passkey' row when passkeys may create accounts", () => {
    const onMethod = vi.fn()
    renderLanding(
      { loginMethods: ['email', 'passkey'], loginConfig: { passkeysForSignupEnabled: true } },
      { onMethod },
    )
    expect(screen.queryByRole('button', { name: 'Log in with a passkey' })).toBeNull()
    screen.getByRole('button', { name: 'Continue with a passkey' }).click()
    expect(onMethod).toHaveBeenCalledWith('passkey')
  })

  it('is a row where loginMethodsAndOrder places it', () => {
    renderLanding({ loginMethodsAndOrder: { primary: ['passkey', 'email'] } })
    expect(screen.getByRole('button', { name: 'Continue with a passkey' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Log in with a passkey' })).toBeNull()
  })
})

const wallet = (id: string, name: string): WalletOption => ({
  key: `eip6963:${id}`,
  id,
  name,
  icon: null,
  chainTypes: ['ethereum'],
  installed: true,
  kind: 'injected',
})
const WALLETS = [
  wallet('metamask', 'MetaMask'),
  wallet('coinbase_wallet', 'Coinbase Wallet'),
  wallet('rainbow', 'Rainbow'),
  wallet('wallet_connect', 'WalletConnect'),
]
const landingWallets = (recentId: string | null = null): LandingWallets => ({
  options: WALLETS,
  expand: (entry) => WALLETS.filter((option) => option.id === entry),
  recentId,
})
const labels = () =>
  [...document.querySelectorAll('.lk-option, .lk-input')].map(
    (el) => el.getAttribute('aria-label') ?? el.textContent,
  )

describe("LandingScreen: wallets (spec 01 §2 'Continue with a wallet' / 'Other wallets')", () => {
  it("web2-first: one 'Continue with a wallet' button, opening the whole wallet list", () => {
    const onWalletList = vi.fn()
    renderLanding({ loginMethods: ['email', 'wallet'] }, { onWalletList })
    fireEvent.click(screen.getByRole('button', { name: 'Continue with a wallet' }))
    expect(onWalletList).toHaveBeenCalledWith(null)
    expect(screen.queryByRole('button', { name: 'Other wallets' })).toBeNull()
  })

  it("web3-first: the app's wallets are rows first, the rest under 'Other wallets'", () => {
    const onWallet = vi.fn()
    const onWalletList = vi.fn()
    renderLanding(
      {
        loginMethods: ['email', 'google', 'wallet'],
        appearance: { loginGroupPriority: 'web3-first' },
      },
      { wallets: landingWallets(), onWallet, onWalletList },
    )
    // 4 rows (two wallets, email, Google) and the wallet button.
    expect(labels()).toEqual([
      'MetaMask',
      'Coinbase Wallet',
      'Other wallets',
      'Email address',
      'Continue with Google',
    ])
    expect(screen.queryByRole('button', { name: 'Continue with a wallet' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: /MetaMask/ }))
    expect(onWallet).toHaveBeenCalledWith('metamask')
    fireEvent.click(screen.getByRole('button', { name: 'Other wallets' }))
    expect(onWalletList).toHaveBeenCalledWith(['rainbow', 'wallet_connect'])
  })

  it("loginMethodsAndOrder's wallets are rows where they are listed", () => {
    renderLanding(
      { loginMethodsAndOrder: { primary: ['email', 'rainbow'], overflow: ['metamask'] } },
      { wallets: landingWallets() },
    )
    expect(labels()).toEqual(['Email address', 'Rainbow', 'Other wallets'])
  })

  it("puts 'Recent' on the wallet row last connected, else on the wallet button", () => {
    const { unmount } = renderLanding(
      { loginMethods: ['wallet'] },
      { wallets: landingWallets('coinbase_wallet'), recentMethod: 'wallet' },
    )
    expect(screen.getByRole('button', { name: /Coinbase Wallet/ }).textContent).toContain('Recent')
    expect(screen.getAllByText('Recent')).toHaveLength(1)
    unmount()
    renderLanding({ loginMethods: ['email', 'wallet'] }, { recentMethod: 'wallet' })
    expect(screen.getByRole('button', { name: /Continue with a wallet/ }).textContent).toContain(
      'Recent',
    )
  })
})
