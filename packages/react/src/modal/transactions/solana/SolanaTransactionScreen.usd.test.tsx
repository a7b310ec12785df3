import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SolanaTransactionRequest } from '../../../transaction-requests.ts'
import { rowText } from '../fixtures.test-helper.ts'
import { solanaRequest } from './fixtures.test-helper.ts'
import { SolanaTransactionScreen } from './SolanaTransactionScreen.tsx'

// Spec 03 §7 "Prices and tokens" (chain 0, symbol SOL) and §9 "USD display":
// SOL amounts show their dollar value when the request has a price.

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Lets pending promises settle and React commit (fake timers: nothing else moves). */
const flush = () => act(() => vi.advanceTimersByTimeAsync(0))

async function renderScreen(request: SolanaTransactionRequest) {
  render(
    <SolanaTransactionScreen
      request={request}
      onResult={vi.fn()}
      onDone={vi.fn()}
      onCancel={vi.fn()}
    />,
  )
  await flush()
}

describe('SolanaTransactionScreen: dollar values', () => {
  it('shows Amount and Estimated fee in dollars, then Total and Fees on the receipt; asked once', async () => {
    const usdPrice = vi.fn(async () => 150)
    await renderScreen(solanaRequest({ usdPrice }))
    // 0.5 SOL × $150; the fee 5000 lamports × $150 = $0.00075.
    expect(rowText('Amount')).toBe('0.5 SOL$75.00')
    expect(rowText('Estimated fee')).toBe('0.000005 SOL<$0.01')
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }))
    await flush()
    expect(screen.getByRole('heading', { name: 'Transaction complete!' })).toBeTruthy()
    expect(rowText('Total')).toBe('0.500005 SOL$75.00')
    expect(rowText('Fees')).toBe('0.000005 SOL<$0.01')
    expect(usdPrice).toHaveBeenCalledOnce()
  })

  it('shows no dollar value without a price', async () => {
    const usdPrice = vi.fn(async () => null)
    await renderScreen(solanaRequest({ usdPrice }))
    expect(usdPrice).toHaveBeenCalledOnce()
    expect(rowText('Amount')).toBe('0.5 SOL')
    expect(rowText('Estimated fee')).toBe('0.000005 SOL')
    expect(document.querySelector('.lk-tx-usd')).toBeNull()
  })
})
