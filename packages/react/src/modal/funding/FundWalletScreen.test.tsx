import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ALTERNATE_PROVIDER_HINT, paymentBadge } from './FundingChooserScreen.tsx'
import FundWalletScreen from './FundWalletScreen.tsx'
import { fakePopup, fundRequest } from './fixtures.test-helper.ts'
import type { FundWalletRequest } from './request.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const heading = () => screen.getAllByRole('heading')[0]?.textContent
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const optionNames = () =>
  Array.from(document.querySelectorAll('.lk-option'), (el) => el.querySelector('span')?.textContent)

function show(overrides: Partial<FundWalletRequest> = {}) {
  const { request, drive } = fundRequest(overrides)
  const onFunded = vi.fn()
  const onClose = vi.fn()
  render(<FundWalletScreen request={request} onFunded={onFunded} onClose={onClose} />)
  return { request, drive, onFunded, onClose }
}

/** window.open as a browser that lets the popup open (or, with null, blocks it). */
function stubOpen(popup: ReturnType<typeof fakePopup> | null = fakePopup()) {
  const open = vi.fn(() => popup)
  vi.stubGlobal('open', open)
  return { open, popup }
}

describe('Funding method chooser (spec 03 §2)', () => {
  it("titles 'Add funds to your {wallet name} wallet' and offers only the configured methods", async () => {
    const { drive } = show({
      options: [
        { method: 'manual', provider: null },
        { method: 'card', provider: 'moonpay' },
      ],
    })
    expect(heading()).toBe('Add funds to your Acme wallet')
    expect(optionNames()).toEqual(['Receive funds', 'Pay with card'])
    await drive.token()
  })

  it('uses the configured landing title instead', async () => {
    const { drive } = show({ uiConfig: { landing: { title: 'Top up' } } })
    expect(heading()).toBe('Top up')
    expect(optionNames()).toEqual([
      'Pay with card',
      'Transfer from an exchange',
      'Transfer from wallet',
      'Receive funds',
    ])
    await drive.token()
  })

  it('disables the buttons while the token details load', async () => {
    const { drive } = show()
    expect(button('Receive funds').disabled).toBe(true)
    await drive.token({
      symbol: 'USDC',
      decimals: 6,
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    })
    expect(button('Receive funds').disabled).toBe(false)
  })

  it("shows an earlier attempt's failure as a banner", async () => {
    const { drive } = show({ error: new LatchkeyError('FUNDING_FAILED') })
    expect(screen.getByRole('alert').textContent).toBe(
      'Something went wrong adding funds. Please try again or use another method.',
    )
    await drive.token()
  })

  it("says 'Unable to fetch token details' when the token cannot be read", async () => {
    show({ token: () => Promise.reject(new LatchkeyError('TOKEN_DETAILS_FAILED')) })
    await act(async () => undefined)
    expect(screen.getByRole('alert').textContent).toBe('Unable to fetch token details')
  })

  it('launches the configured default method once on entry', async () => {
    const { drive } = show({ defaultFundingMethod: 'manual' })
    await drive.token()
    expect(heading()).toBe('Receive 0.1 ETH')
    fireEvent.click(button('Back'))
    expect(heading()).toBe('Add funds to your Acme wallet')
  })

  it('ignores a default method the chooser does not offer', async () => {
    const { drive } = show({
      defaultFundingMethod: 'wallets',
      options: [{ method: 'manual', provider: null }],
    })
    await drive.token()
    expect(heading()).toBe('Add funds to your Acme wallet')
  })

  it("badges 'Pay with card' with Apple Pay, Google Pay on Android, and Solana on Solana", async () => {
    expect(paymentBadge({ ApplePaySession: { canMakePayments: () => true } }, '')).toBe('Apple Pay')
    expect(paymentBadge({}, 'Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe('Google Pay')
    expect(paymentBadge({}, 'Mozilla/5.0 (X11; Linux x86_64)')).toBeNull()
    const { drive } = show({ chainType: 'solana', network: 'Solana' })
    const card = screen.getByRole('button', { name: /^Pay with card/ })
    expect(card.querySelector('.lk-fund-badge')?.textContent).toBe('Solana')
    await drive.token()
  })
})

describe("Card on-ramp status ('Fund account', spec 03 §4)", () => {
  it("'Unable to initialize flow' when the browser blocks the popup", async () => {
    stubOpen(null)
    const { request, drive } = show()
    await drive.token()
    fireEvent.click(button('Pay with card'))
    expect(screen.getByRole('alert').textContent).toBe('Unable to initialize flow')
    expect(request.startMoonpay).not.toHaveBeenCalled()
  })

  it('opens the popup in the click, then sends it to the server-signed URL', async () => {
    const { open, popup } = stubOpen()
    const { request, drive } = show()
    await drive.token()
    await act(async () => fireEvent.click(button('Pay with card')))
    expect(open).toHaveBeenCalledWith('about:blank', 'latchkey-funding', 'width=440,height=680')
    expect(popup?.location.href).toBe('https://buy.moonpay.com/?signature=x')
    expect(request.watchMoonpay).toHaveBeenCalledWith(
      'ext-1',
      expect.any(Function),
      expect.any(AbortSignal),
    )
    expect(heading()).toBe('Fund account')
    expect(screen.getByText('In Progress')).toBeTruthy()
    expect(screen.getByText('Go back to MoonPay to finish funding your account.')).toBeTruthy()
  })

  it("waitingAuthorization shows 'Processing payment' with Continue", async () => {
    stubOpen()
    const { drive } = show()
    await drive.token()
    await act(async () => fireEvent.click(button('Pay with card')))
    await drive.moonpay('waitingAuthorization')
    expect(screen.getByText('Processing payment')).toBeTruthy()
    expect(
      screen.getByText(
        'This may take up to a few hours. You will receive an email when the purchase is complete.',
      ),
    ).toBeTruthy()
    expect(button('Continue')).toBeTruthy()
  })

  it("completed shows 'You've funded your account!'; Continue closes with funded", async () => {
    stubOpen()
    const { drive, onFunded, onClose } = show()
    await drive.token()
    await act(async () => fireEvent.click(button('Pay with card')))
    await drive.moonpay('pending')
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    await drive.moonpay('completed')
    expect(screen.getByText("You've funded your account!")).toBeTruthy()
    expect(screen.getByText('It may take a few minutes for the assets to appear.')).toBeTruthy()
    expect(onFunded).toHaveBeenCalled()
    fireEvent.click(button('Continue'))
    expect(onClose).toHaveBeenCalled()
  })

  it('failed returns to the chooser with the MoonPay message and the alternate-provider hint', async () => {
    const { popup } = stubOpen()
    const { request, drive } = show({
      options: [
        { method: 'card', provider: 'moonpay' },
        { method: 'card', provider: 'coinbase' },
      ],
    })
    await drive.token()
    await act(async () => fireEvent.click(button('Pay with card')))
    await drive.moonpay('serviceFailure')
    expect(heading()).toBe('Add funds to your Acme wallet')
    expect(screen.getByRole('alert').textContent).toBe(
      'Something went wrong adding funds from Moonpay. Please try again or use another method to fund your wallet.',
    )
    expect(popup?.close).toHaveBeenCalled()
    expect(drive.signals.every((s) => s.aborted)).toBe(true)
    stubOpen()
    await act(async () => fireEvent.click(button(ALTERNATE_PROVIDER_HINT)))
    expect(request.startCoinbase).toHaveBeenCalledWith(expect.anything(), 'buy')
  })

  it("'Pay with card' uses the preferred provider when it is offered", async () => {
    stubOpen()
    const { request, drive } = show({
      preferredCardProvider: 'coinbase',
      options: [
        { method: 'card', provider: 'moonpay' },
        { method: 'card', provider: 'coinbase' },
      ],
    })
    await drive.token()
    await act(async () => fireEvent.click(button('Pay with card')))
    expect(request.startCoinbase).toHaveBeenCalled()
    expect(request.startMoonpay).not.toHaveBeenCalled()
  })

  it('a server refusal to sign closes the popup and shows the message', async () => {
    const { popup } = stubOpen()
    const { drive } = show({
      startMoonpay: () => Promise.reject(new LatchkeyError('ONRAMP_NOT_CONFIGURED')),
    })
    await drive.token()
    await act(async () => fireEvent.click(button('Pay with card')))
    expect(popup?.close).toHaveBeenCalled()
    expect(screen.getByRole('alert').textContent).toBe(
      'This app has not set up that funding provider',
    )
  })
})

describe('Coinbase-style onramp status (spec 03 §4)', () => {
  it('exchange opens Coinbase (send); three popup closes return to the chooser without an error', async () => {
    stubOpen()
    const { request, drive } = show()
    await drive.token()
    await act(async () => fireEvent.click(button('Transfer from an exchange')))
    expect(request.startCoinbase).toHaveBeenCalledWith(expect.anything(), 'send')
    expect(screen.getByText('Go back to Coinbase to finish funding your account.')).toBeTruthy()
    // Closed, the status still being read: 'In Progress' (spec 03 §2 names only that and
    // success for Coinbase), no "Go back to Coinbase", no email promise, no Continue.
    await drive.coinbase('pending-after-flow')
    expect(screen.getByRole('status').textContent).toBe(
      'In ProgressChecking your purchase with Coinbase.',
    )
    expect(screen.queryByText('Processing payment')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    await drive.coinbase('closed')
    expect(heading()).toBe('Add funds to your Acme wallet')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('an error returns to the chooser with the message', async () => {
    stubOpen()
    const { drive } = show()
    await drive.token()
    await act(async () => fireEvent.click(button('Transfer from an exchange')))
    await drive.coinbase('error')
    expect(screen.getByRole('alert').textContent).toBe(
      'Something went wrong adding funds. Please try again or use another method.',
    )
  })

  it("success shows 'You've funded your account!'", async () => {
    stubOpen()
    const { drive, onFunded } = show()
    await drive.token()
    await act(async () => fireEvent.click(button('Transfer from an exchange')))
    await drive.coinbase('success')
    expect(screen.getByText("You've funded your account!")).toBeTruthy()
    expect(onFunded).toHaveBeenCalled()
  })
})
