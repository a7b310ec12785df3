import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isInAppBrowser } from './in-app-browser.ts'
import { OAuthStatusScreen } from './OAuthStatusScreen.tsx'
import { OAUTH_PROVIDER_DISPLAY } from './providers.tsx'

afterEach(cleanup)

describe('OAuthStatusScreen (spec 01 §4: three statuses)', () => {
  it('verifying', () => {
    render(<OAuthStatusScreen provider="github" status="loading" />)
    expect(screen.getByRole('heading').textContent).toBe('Verifying connection to GitHub')
    expect(screen.getByRole('status', { name: 'Verifying connection to GitHub' })).toBeTruthy()
  })

  it('success', () => {
    render(<OAuthStatusScreen provider="google" status="done" />)
    expect(screen.getByRole('heading').textContent).toBe('Successfully connected with Google')
  })

  it("failure 'Invalid code during OAuth flow.' with Retry (retryable)", () => {
    const onRetry = vi.fn()
    render(
      <OAuthStatusScreen
        provider="discord"
        status="error"
        errorCode="OAUTH_INVALID_CODE"
        onRetry={onRetry}
      />,
    )
    expect(screen.getByRole('heading').textContent).toBe('Authentication failed')
    expect(screen.getByText('Invalid code during OAuth flow.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalled()
  })

  it('failure on a state mismatch shows the phishing message without Retry', () => {
    render(
      <OAuthStatusScreen
        provider="google"
        status="error"
        errorCode="OAUTH_STATE_MISMATCH"
        onRetry={() => {}}
      />,
    )
    expect(screen.getByText('Unexpected auth flow. This may be a phishing attempt.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })
})

describe('provider display', () => {
  it('has a name and an icon for each of the ten providers', () => {
    expect(Object.keys(OAUTH_PROVIDER_DISPLAY)).toHaveLength(10)
    for (const display of Object.values(OAUTH_PROVIDER_DISPLAY)) {
      render(<display.icon />)
      expect(screen.getByRole('img', { name: display.name })).toBeTruthy()
      cleanup()
    }
  })
})

describe('isInAppBrowser', () => {
  it.each([
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 300.0.0.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 [FBAN/FBIOS;FBAV/440.0]',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UD1A; wv) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36',
    'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Mobile/15E148 Line/13.20.0',
  ])('detects %s', (ua) => {
    expect(isInAppBrowser(ua)).toBe(true)
  })

  it('does not flag ordinary browsers', () => {
    expect(
      isInAppBrowser(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
      ),
    ).toBe(false)
    expect(
      isInAppBrowser(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      ),
    ).toBe(false)
  })
})
