import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ETH, fundRequest, WALLET } from './fixtures.test-helper.ts'
import { ReceiveFundsScreen } from './ReceiveFundsScreen.tsx'
import type { FundingToken, FundWalletRequest } from './request.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const SOL: FundingToken = { symbol: 'SOL', decimals: 9 }

function show(overrides: Partial<FundWalletRequest> = {}, token = ETH) {
  const { request, drive } = fundRequest(overrides)
  const props = { onBack: vi.fn(), onContinue: vi.fn(), onFunded: vi.fn() }
  const view = render(<ReceiveFundsScreen request={request} token={token} {...props} />)
  return { request, drive, view, ...props }
}

const card = () => screen.getByTestId('lk-wallet-card')

describe('Receive funds (spec 03 §2, §4 "Manual receive")', () => {
  it("draws the payment URI as a 240 px QR code under 'Receive {amount} {symbol}'", () => {
    show()
    expect(screen.getByRole('heading').textContent).toBe('Receive 0.1 ETH')
    expect(
      screen.getByText('Scan this code or copy your wallet address to receive funds on Base.'),
    ).toBeTruthy()
    const qr = screen.getByRole('img', { name: 'QR code to send ETH to your wallet' })
    expect(qr.getAttribute('width')).toBe('240')
    expect(qr.getAttribute('data-qr-value')).toBe(
      `ethereum:${WALLET}@8453?value=100000000000000000&symbol=ETH`,
    )
    expect(screen.getByTestId('lk-fund-address').textContent).toBe(WALLET)
  })

  it('names the Solana cluster in the note', () => {
    show({ chainType: 'solana', network: 'Devnet', amount: '1.5' }, SOL)
    expect(screen.getByRole('heading').textContent).toBe('Receive 1.5 SOL')
    expect(
      screen.getByText('Scan this code or copy your wallet address to receive funds on Devnet.'),
    ).toBeTruthy()
    expect(screen.getByText('Only send funds on Devnet.')).toBeTruthy()
  })

  it('takes the title and subtitle from the UI config, or drops them when null', () => {
    show({ uiConfig: { receiveFundsTitle: 'Deposit', receiveFundsSubtitle: 'Top up here.' } })
    expect(screen.getByRole('heading').textContent).toBe('Deposit')
    expect(screen.getByText('Top up here.')).toBeTruthy()
    cleanup()
    show({ uiConfig: { receiveFundsTitle: null, receiveFundsSubtitle: null } })
    expect(screen.getByRole('heading').textContent).toBe('')
    expect(document.querySelector('.lk-subtitle')).toBeNull()
  })

  it('names the network on a line of its own, which an overridden or suppressed subtitle keeps', () => {
    const note = () => document.querySelector('.lk-fund-network')?.textContent
    show()
    expect(note()).toBe('Only send funds on Base.')
    cleanup()
    show({ uiConfig: { receiveFundsSubtitle: 'Top up here.' } })
    expect(screen.queryByText(/receive funds on Base/)).toBeNull()
    expect(note()).toBe('Only send funds on Base.')
    cleanup()
    show({ uiConfig: { receiveFundsTitle: null, receiveFundsSubtitle: null } })
    expect(note()).toBe('Only send funds on Base.')
    cleanup()
    show(
      { chainType: 'solana', network: 'localnet', uiConfig: { receiveFundsSubtitle: null } },
      SOL,
    )
    expect(screen.getByText('Only send funds on localnet.')).toBeTruthy()
  })

  it('copies the address', async () => {
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined)
    show()
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy address' })))
    expect(writeText).toHaveBeenCalledWith(WALLET)
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy()
  })

  it('shows the balance; Continue once it rises; the card turns green at the requested amount', async () => {
    const { drive, onFunded, onContinue } = show()
    expect(card().textContent).not.toContain('ETH')
    await drive.balance({ balance: 0n, funded: false, enough: false })
    expect(card().textContent).toContain('0 ETH')
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    expect(card().getAttribute('data-funded')).toBe('false')

    await drive.balance({ balance: 50_000_000_000_000_000n, funded: true, enough: false })
    expect(card().textContent).toContain('0.05 ETH')
    expect(onFunded).toHaveBeenCalledTimes(1)
    expect(card().getAttribute('data-funded')).toBe('false')
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(onContinue).toHaveBeenCalled()

    await drive.balance({ balance: 100_000_000_000_000_000n, funded: true, enough: true })
    expect(card().getAttribute('data-funded')).toBe('true')
  })

  it('stops polling when it leaves', () => {
    const { drive, view } = show()
    expect(drive.signals[0]?.aborted).toBe(false)
    view.unmount()
    expect(drive.signals[0]?.aborted).toBe(true)
  })
})
