import type { CaptchaState } from '@latchkey/core'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CAPTCHA_ADVICE, CaptchaScreen } from './CaptchaScreen.tsx'

afterEach(cleanup)

const state = (overrides: Partial<CaptchaState>): CaptchaState => ({
  status: 'loading',
  error: null,
  exhausted: false,
  waiting: true,
  ...overrides,
})

describe('CaptchaScreen (spec 02 "Captcha screen")', () => {
  it("reads 'Checking that you are a human...' while the captcha solves", () => {
    render(<CaptchaScreen state={state({})} onRetry={() => {}} />)
    expect(screen.getByRole('heading', { name: 'Checking that you are a human...' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
  })

  it("shows 'Success' once a token is there", () => {
    render(<CaptchaScreen state={state({ status: 'success' })} onRetry={() => {}} />)
    expect(screen.getByRole('heading', { name: 'Success' })).toBeTruthy()
  })

  it("shows the catalogue's message with Retry on an error", () => {
    const onRetry = vi.fn()
    render(
      <CaptchaScreen
        state={state({ status: 'error', error: 'CAPTCHA_FAILED' })}
        onRetry={onRetry}
      />,
    )
    expect(
      screen.getByRole('heading', { name: 'You did not pass CAPTCHA. Please try again.' }),
    ).toBeTruthy()
    expect(screen.queryByText(CAPTCHA_ADVICE)).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('advises disabling an ad blocker or VPN once the retries are used up', () => {
    render(
      <CaptchaScreen
        state={state({ status: 'error', error: 'CAPTCHA_TIMEOUT', exhausted: true })}
        onRetry={() => {}}
      />,
    )
    expect(
      screen.getByRole('heading', { name: 'Something went wrong! Please try again later.' }),
    ).toBeTruthy()
    expect(screen.getByText(CAPTCHA_ADVICE)).toBeTruthy()
  })
})
