import type { TransactionScanResult } from '@latchkey/core/transactions'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { parseEther, parseUnits } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EthereumTransactionRequest } from '../../transaction-requests.ts'
import { EthereumTransactionScreen } from './EthereumTransactionScreen.tsx'
import {
  ethereumRequest,
  ethSend,
  RECIPIENT,
  rowText,
  USDC,
  usdcApprove,
  WALLET,
} from './fixtures.test-helper.ts'

// Spec 03 §7 "Prices and tokens" and §9 "USD display": native amounts show
// their dollar value when the request has a price; none without one.

afterEach(cleanup)

function renderScreen(request: EthereumTransactionRequest) {
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<EthereumTransactionScreen request={request} {...props} />)
}

/** The rows are drawn and the scan has answered. */
async function settled() {
  await screen.findByText('Network')
  await waitFor(() => expect(screen.queryByText('Checking transaction...')).toBeNull())
}

const priced = (usd: number | null) => vi.fn(async () => usd)

describe('EthereumTransactionScreen: dollar values', () => {
  it('shows the Amount and the Estimated fee in dollars at the price, asked once', async () => {
    const usdPrice = priced(3000)
    renderScreen(ethereumRequest({ usdPrice }))
    await settled()
    // 0.5 ETH × $3000; the fee 0.000042 ETH × $3000 = $0.126.
    await waitFor(() => expect(rowText('Amount')).toBe('0.5 ETH$1,500.00'))
    expect(rowText('Estimated fee')).toBe('0.000042 ETH$0.13')
    expect(usdPrice).toHaveBeenCalledOnce()
  })

  it('shows no dollar value when there is no price, or asking for it fails', async () => {
    for (const usdPrice of [priced(null), vi.fn(() => Promise.reject(new Error('offline')))]) {
      renderScreen(ethereumRequest({ usdPrice }))
      await settled()
      await waitFor(() => expect(usdPrice).toHaveBeenCalledOnce())
      expect(rowText('Amount')).toBe('0.5 ETH')
      expect(rowText('Estimated fee')).toBe('0.000042 ETH')
      expect(document.querySelector('.lk-tx-usd')).toBeNull()
      cleanup()
    }
  })

  it("writes '<$0.01' for a value under a cent, and prices no token amount", async () => {
    renderScreen(
      ethereumRequest({
        usdPrice: priced(3000),
        requests: [{ to: RECIPIENT, value: 1_000_000_000n }, usdcApprove(parseUnits('1.5', 6))],
      }),
    )
    await settled()
    // 1 gwei: '<0.001' ETH (spec 03 §9 "Token display") worth $0.000003.
    await waitFor(() => expect(rowText('Amount')).toBe('<0.001 ETH<$0.01'))
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await screen.findByText('Approval amount')
    await settled()
    expect(rowText('Approval amount')).toBe('1.5 USDC')
    expect(rowText('Estimated fee')).toBe('0.000092 ETH$0.28')
  })

  it("keeps the scan's own dollar values, and prices a native change the scan left unpriced", async () => {
    const usdc = { type: 'ERC20', address: USDC, symbol: 'USDC', decimals: 6 } as const
    const result = (usd_price?: number): TransactionScanResult => ({
      simulation: {
        status: 'Success',
        params: { from: WALLET, to: RECIPIENT, value: parseEther('0.5') },
        assets_diffs: [
          {
            asset: { type: 'NATIVE', symbol: 'ETH', decimals: 18 },
            in: [],
            out: [{ value: parseEther('0.5'), ...(usd_price ? { usd_price } : {}) }],
          },
          { asset: usdc, in: [{ value: parseUnits('12', 6) }], out: [] },
        ],
        exposures: [],
      },
    })
    for (const [scanPrice, send] of [
      [1234.5, '0.5 ETH$1,234.50'],
      [undefined, '0.5 ETH$1,500.00'],
    ] as const) {
      renderScreen(
        ethereumRequest({
          requests: [ethSend],
          usdPrice: priced(3000),
          scan: async () => ({
            status: 'completed',
            source: 'simulation',
            result: result(scanPrice),
          }),
        }),
      )
      await screen.findByText('Send')
      await waitFor(() => expect(rowText('Estimated fee')).toBe('0.000042 ETH$0.13'))
      expect(rowText('Send')).toBe(send)
      expect(rowText('Receive')).toBe('12 USDC')
      cleanup()
    }
  })
})
