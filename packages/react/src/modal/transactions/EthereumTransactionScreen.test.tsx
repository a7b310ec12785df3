import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { maxUint256, parseUnits } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EthereumTransactionRequest } from '../../transaction-requests.ts'
import { EthereumTransactionScreen } from './EthereumTransactionScreen.tsx'
import {
  ethereumRequest,
  ethSend,
  HASH,
  nftApproveAll,
  preparedOf,
  RECIPIENT,
  rowLabels,
  rowText,
  SECOND_HASH,
  SPENDER,
  USDC,
  usdcApprove,
} from './fixtures.test-helper.ts'

afterEach(cleanup)

function renderScreen(request: EthereumTransactionRequest) {
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<EthereumTransactionScreen request={request} {...props} />)
  return props
}

/** The rows are drawn and the scan has answered. */
async function settled() {
  await screen.findByText('Network')
  await waitFor(() => expect(screen.queryByText('Checking transaction...')).toBeNull())
}

const approveButton = (name = 'Approve') =>
  screen.getByRole('button', { name }) as HTMLButtonElement

describe('EthereumTransactionScreen: the confirm screen', () => {
  it('shows an ETH send: Amount, To, Network, Estimated fee, the wallet card and Approve', async () => {
    renderScreen(ethereumRequest())
    expect(screen.getByRole('status', { name: 'Preparing transaction' })).toBeTruthy()
    expect(approveButton().disabled).toBe(true)
    await settled()
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    expect(rowLabels()).toEqual(['Amount', 'To', 'Network', 'Estimated fee'])
    expect(rowText('Amount')).toBe('0.5 ETH')
    expect(rowText('To')).toBe(`${RECIPIENT.slice(0, 6)}…${RECIPIENT.slice(-4)}`)
    expect(rowText('Network')).toBe('Anvil')
    expect(rowText('Estimated fee')).toBe('0.000042 ETH')
    expect(screen.getByTestId('lk-wallet-card').textContent).toBe('0x7099…79C810 ETH')
    // A plain send has no calldata: no Details.
    expect(screen.queryByRole('button', { name: 'Details' })).toBeNull()
    // The node cannot simulate: said plainly, and the preview stays plain.
    expect(screen.getByTestId('lk-tx-scan-note').textContent).toBe(
      'This node cannot simulate transactions.',
    )
    expect(approveButton().disabled).toBe(false)
    expect(screen.queryByRole('button', { name: 'Not now' })).toBeNull()
  })

  it("shows an unlimited ERC-20 approval as 'Confirm address' with 'Maximum', the spender and the token", async () => {
    renderScreen(ethereumRequest({ requests: [usdcApprove(maxUint256)] }))
    await settled()
    expect(screen.getByRole('heading', { name: 'Confirm address' })).toBeTruthy()
    expect(rowLabels()).toEqual([
      'Approval amount',
      'Spender',
      'Token address',
      'Network',
      'Estimated fee',
    ])
    expect(rowText('Approval amount')).toBe('Maximum')
    expect(rowText('Spender')).toBe('0x90F7…b906')
    expect(rowText('Token address')).toBe(`${USDC.slice(0, 6)}…${USDC.slice(-4)}`)
    expect(rowText('Estimated fee')).toBe('0.000092 ETH')
  })

  it('shows a limited approval in the token’s units, and opens Details: function, arguments, data', async () => {
    const input = usdcApprove(parseUnits('1.5', 6))
    renderScreen(ethereumRequest({ requests: [input] }))
    await settled()
    expect(rowText('Approval amount')).toBe('1.5 USDC')
    const toggle = screen.getByRole('button', { name: 'Details' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByTestId('lk-tx-details')).toBeNull()
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    const details = screen.getByTestId('lk-tx-details')
    expect(details.querySelector('.lk-details-label')?.textContent).toBe('approve')
    const [args, data] = details.querySelectorAll('pre')
    expect(JSON.parse(args?.textContent ?? '')).toEqual([SPENDER, '1500000'])
    expect(data?.textContent).toBe(input.data)
  })

  it("titles an NFT operator approval 'Confirm action', with its operator as the spender", async () => {
    renderScreen(ethereumRequest({ requests: [nftApproveAll] }))
    await settled()
    expect(screen.getByRole('heading', { name: 'Confirm action' })).toBeTruthy()
    expect(rowText('Spender')).toBe('0x90F7…b906')
    expect(rowText('Approval amount')).toBeNull()
  })

  it("applies uiOptions: 'Approve {action}', a title, a description, the button's text and 'Not now'", async () => {
    const props = renderScreen(
      ethereumRequest({
        uiOptions: {
          transactionInfo: { action: 'swap' },
          description: 'Swap 0.5 ETH for USDC.',
          buttonText: 'Swap now',
          isCancellable: true,
        },
      }),
    )
    await settled()
    expect(screen.getByRole('heading', { name: 'Approve swap' })).toBeTruthy()
    expect(screen.getByText('Swap 0.5 ETH for USDC.')).toBeTruthy()
    expect(approveButton('Swap now').disabled).toBe(false)
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }))
    expect(props.onCancel).toHaveBeenCalledOnce()
    cleanup()
    renderScreen(
      ethereumRequest({ uiOptions: { transactionInfo: { title: 'Buy a ticket', action: 'x' } } }),
    )
    expect(await screen.findByRole('heading', { name: 'Buy a ticket' })).toBeTruthy()
  })

  it("shows 'Sponsored' instead of the fee when the app pays the gas", async () => {
    renderScreen(ethereumRequest({ sponsored: true }))
    await settled()
    expect(rowText('Estimated fee')).toBe('Sponsored')
  })

  it("runs several steps: '(1 / 2)' and Continue, then '(2 / 2)' and Approve, then the receipt", async () => {
    const approval = usdcApprove(maxUint256)
    const prepare = vi.fn(async (input: typeof ethSend) => preparedOf(input))
    const submit = vi
      .fn<EthereumTransactionRequest['submit']>()
      .mockResolvedValueOnce({ hash: HASH })
      .mockResolvedValueOnce({ hash: SECOND_HASH })
    const props = renderScreen(ethereumRequest({ requests: [approval, ethSend], prepare, submit }))
    await settled()
    expect(screen.getByRole('heading', { name: 'Confirm address (1 / 2)' })).toBeTruthy()
    fireEvent.click(approveButton('Continue'))
    expect(await screen.findByRole('heading', { name: 'Confirm transaction (2 / 2)' })).toBeTruthy()
    expect(submit.mock.calls[0]?.[0].request.data).toBe(approval.data)
    expect(props.onResult).toHaveBeenLastCalledWith([{ hash: HASH }])
    await settled()
    expect(rowText('Amount')).toBe('0.5 ETH')
    fireEvent.click(approveButton('Approve'))
    expect(await screen.findByRole('heading', { name: 'Transaction complete!' })).toBeTruthy()
    expect(prepare.mock.calls.map(([input]) => input)).toEqual([approval, ethSend])
    expect(props.onResult).toHaveBeenLastCalledWith([{ hash: HASH }, { hash: SECOND_HASH }])
    expect(screen.getAllByTestId('lk-tx-hash').map((row) => row.firstChild?.textContent)).toEqual([
      'Step 1',
      'Step 2',
    ])
  })
})
