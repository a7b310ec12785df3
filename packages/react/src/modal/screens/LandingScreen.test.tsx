import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type LatchkeyConfig, resolveConfig } from '../../config.ts'
import { appConfig } from '../../test/fake-server.ts'
import { LandingScreen, type LandingScreenProps } from './LandingScreen.tsx'

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
