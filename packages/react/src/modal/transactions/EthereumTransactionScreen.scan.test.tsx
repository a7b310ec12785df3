import type { TransactionScanResult } from '@latchkey/core/transactions'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { maxUint256, parseEther, parseUnits } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EthereumScanOutcome, EthereumTransactionRequest } from '../../transaction-requests.ts'
import { EthereumTransactionScreen } from './EthereumTransactionScreen.tsx'
import {
  ethereumRequest,
  RECIPIENT,
  rowLabels,
  rowText,
  SPENDER,
  USDC,
  WALLET,
} from './fixtures.test-helper.ts'

afterEach(cleanup)

function renderScreen(request: EthereumTransactionRequest) {
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<EthereumTransactionScreen request={request} {...props} />)
  return props
}

const approve = () => screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement

const scanned =
  (result: TransactionScanResult): EthereumTransactionRequest['scan'] =>
  async () => ({ status: 'completed', source: 'app', result })

const usdcAsset = { type: 'ERC20', address: USDC, symbol: 'USDC', decimals: 6 } as const

/** 0.5 ETH out, 1234.5 USDC in, priced; USDC approved to SPENDER without limit. */
const swap: TransactionScanResult = {
  validation: { status: 'Success', result_type: 'Benign' },
  simulation: {
    status: 'Success',
    params: { from: WALLET, to: RECIPIENT, value: parseEther('0.5') },
    assets_diffs: [
      {
        asset: { type: 'NATIVE', symbol: 'ETH', decimals: 18 },
        in: [],
        out: [{ value: parseEther('0.5'), usd_price: 1234.5 }],
      },
      {
        asset: usdcAsset,
        in: [{ value: parseUnits('1234.5', 6), usd_price: 1234.46 }],
        out: [],
      },
    ],
    exposures: [{ asset: usdcAsset, spenders: [{ address: SPENDER, value: maxUint256 }] }],
  },
}

const flagged = (result_type: 'Warning' | 'Malicious', reason: string): TransactionScanResult => ({
  validation: { status: 'Success', result_type, reason },
})

describe('EthereumTransactionScreen: the scan', () => {
  it('checks the transaction before Approve can be pressed', async () => {
    let answer: (outcome: EthereumScanOutcome) => void = () => {}
    const scan = vi.fn(() => new Promise<EthereumScanOutcome>((resolve) => (answer = resolve)))
    renderScreen(ethereumRequest({ scan }))
    expect(await screen.findByText('Checking transaction...')).toBeTruthy()
    expect(approve().disabled).toBe(true)
    await act(async () => answer({ status: 'completed', source: 'simulation', result: swap }))
    expect(approve().disabled).toBe(false)
    expect(scan).toHaveBeenCalledWith(expect.objectContaining({ from: WALLET, hasFunds: true }))
  })

  it('shows what leaves and enters the wallet, with the scan’s dollar values, instead of Amount', async () => {
    renderScreen(ethereumRequest({ scan: scanned(swap) }))
    await screen.findByText('No issues found')
    expect(rowLabels()).toEqual(['Send', 'Receive', 'To', 'Network', 'Estimated fee'])
    expect(rowText('Send')).toBe('0.5 ETH$1,234.50')
    expect(rowText('Receive')).toBe('1234.5 USDC$1,234.46')
  })

  it('opens the scan details: verdict, asset changes and approvals, and goes back', async () => {
    renderScreen(ethereumRequest({ scan: scanned(swap) }))
    fireEvent.click(await screen.findByRole('button', { name: 'View scan details' }))
    expect(screen.getByRole('heading', { name: 'Scan details' })).toBeTruthy()
    expect(screen.getByTestId('lk-scan-verdict').textContent).toBe('Benign')
    const changes = screen.getByRole('region', { name: 'Asset changes' })
    expect(rowText('Send', changes)).toBe('0.5 ETH$1,234.50')
    expect(rowText('Receive', changes)).toBe('1234.5 USDC$1,234.46')
    const approvals = screen.getByRole('region', { name: 'Approvals' })
    expect(rowText('USDC', approvals)).toBe('0x90F7…b906Maximum')
    fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    expect(approve().disabled).toBe(false)
  })

  it('shows a Warning result as a warning and still lets the user approve', async () => {
    renderScreen(ethereumRequest({ scan: scanned(flagged('Warning', 'New contract')) }))
    const warning = await screen.findByTestId('lk-tx-warning')
    expect(warning.textContent).toBe('This transaction may be risky' + 'New contract')
    expect(approve().disabled).toBe(false)
  })

  it("blocks a Malicious result until 'I understand and want to proceed anyways.' is ticked", async () => {
    const submit = vi.fn(ethereumRequest().submit)
    renderScreen(ethereumRequest({ scan: scanned(flagged('Malicious', 'Known drainer')), submit }))
    const block = await screen.findByTestId('lk-tx-malicious')
    expect(block.textContent).toContain('Known drainer')
    expect(approve().disabled).toBe(true)
    const consent = screen.getByRole('checkbox', {
      name: 'I understand and want to proceed anyways.',
    })
    fireEvent.click(consent)
    expect(approve().disabled).toBe(false)
    fireEvent.click(consent)
    expect(approve().disabled).toBe(true)
    fireEvent.click(consent)
    fireEvent.click(approve())
    await screen.findByRole('heading', { name: 'Transaction complete!' })
    expect(submit).toHaveBeenCalledOnce()
  })

  it.each(['Transaction scan failed', 'Simulation failed', 'No tokens found'])(
    "falls back to the plain preview with a note when the scan answers '%s'",
    async (message) => {
      renderScreen(
        ethereumRequest({
          scan: async () => ({ status: 'failed', source: 'simulation', message }),
        }),
      )
      expect((await screen.findByTestId('lk-tx-scan-note')).textContent).toBe(message)
      expect(rowText('Amount')).toBe('0.5 ETH')
      expect(rowText('Send')).toBeNull()
      expect(approve().disabled).toBe(false)
    },
  )

  it("says 'Transaction scan failed' when the scanner throws", async () => {
    renderScreen(
      ethereumRequest({
        scan: async () => {
          throw new Error('scanner down')
        },
      }),
    )
    expect((await screen.findByTestId('lk-tx-scan-note')).textContent).toBe(
      'Transaction scan failed',
    )
    await waitFor(() => expect(approve().disabled).toBe(false))
  })
})
