import { LatchkeyError } from '@latchkey/core'
import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { parseEther } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EthereumTransactionRequest } from '../../transaction-requests.ts'
import { fundRequest } from '../funding/fixtures.test-helper.ts'
import type { FundWalletRequest } from '../funding/request.ts'
import { EthereumTransactionScreen } from './EthereumTransactionScreen.tsx'
import { ethereumRequest, ethSend, preparedOf, rowText } from './fixtures.test-helper.ts'

afterEach(cleanup)

function renderScreen(request: EthereumTransactionRequest) {
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<EthereumTransactionScreen request={request} {...props} />)
  return props
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const broke = (input: EthereumTransactionInput) => preparedOf(input, { balance: parseEther('0.1') })

describe('EthereumTransactionScreen: funds', () => {
  it("disables Approve and says 'Add funds on Anvil to complete transaction.' when funding is off", async () => {
    const submit = vi.fn(ethereumRequest().submit)
    renderScreen(ethereumRequest({ prepare: async (input) => broke(input), submit }))
    expect(await screen.findByText('Add funds on Anvil to complete transaction.')).toBeTruthy()
    expect(screen.getByTestId('lk-wallet-card').textContent).toContain('0.1 ETH')
    expect(button('Approve').disabled).toBe(true)
    fireEvent.click(button('Approve'))
    expect(submit).not.toHaveBeenCalled()
  })

  it("offers 'Add funds' for the value plus the fee: funding opens in place, and closing it checks the balance again", async () => {
    let funded = false
    const prepare = vi.fn(async (input: EthereumTransactionInput) =>
      funded ? preparedOf(input) : broke(input),
    )
    const { request: funding, drive } = fundRequest({ network: 'Anvil' })
    const addFunds = vi.fn(async (_amount: bigint) => funding)
    const props = renderScreen(ethereumRequest({ prepare, addFunds }))
    const add = await screen.findByRole('button', { name: 'Add funds' })
    expect(screen.queryByText('Add funds on Anvil to complete transaction.')).toBeNull()
    fireEvent.click(add)
    // 0.5 ETH + 21 000 gas × 2 gwei.
    expect(addFunds).toHaveBeenCalledWith(parseEther('0.5') + 42_000_000_000_000n)
    await screen.findByRole('heading', { name: 'Add funds to your Acme wallet' })
    await drive.token()
    fireEvent.click(button('Receive funds'))
    await drive.balance({ balance: parseEther('10'), funded: false, enough: false })
    funded = true
    await drive.balance({ balance: parseEther('11'), funded: true, enough: true })
    // Receive's Continue ends funding: the confirm screen is back, prepared again.
    fireEvent.click(button('Continue'))
    await waitFor(() => expect(button('Approve').disabled).toBe(false))
    expect(prepare).toHaveBeenCalledTimes(2)
    expect(screen.getByTestId('lk-wallet-card').textContent).toContain('10 ETH')
    // The transaction was neither answered nor rejected meanwhile.
    expect(props.onCancel).not.toHaveBeenCalled()
    expect(props.onDone).not.toHaveBeenCalled()
  })

  it.each(['Close', 'Back'])(
    "funding's %s button returns to the confirm screen, still short: 'Add funds' again",
    async (name) => {
      const prepare = vi.fn(async (input: EthereumTransactionInput) => broke(input))
      const { request: funding } = fundRequest({ comingFromSendTransactionScreen: true })
      const props = renderScreen(ethereumRequest({ prepare, addFunds: async () => funding }))
      fireEvent.click(await screen.findByRole('button', { name: 'Add funds' }))
      await screen.findByRole('heading', { name: 'Add funds to your Acme wallet' })
      fireEvent.click(button(name))
      await waitFor(() => expect(prepare).toHaveBeenCalledTimes(2))
      await waitFor(() => expect(button('Add funds').disabled).toBe(false))
      expect(props.onCancel).not.toHaveBeenCalled()
    },
  )

  it("says 'Funding wallet is not enabled' when the click finds no funding method, and stays", async () => {
    const addFunds = vi.fn(async (): Promise<FundWalletRequest> => {
      throw new LatchkeyError('FUNDING_METHOD_NOT_ENABLED')
    })
    renderScreen(ethereumRequest({ prepare: async (input) => broke(input), addFunds }))
    fireEvent.click(await screen.findByRole('button', { name: 'Add funds' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Funding wallet is not enabled')
    expect(button('Add funds').disabled).toBe(false)
    expect(addFunds).toHaveBeenCalledOnce()
  })
})

describe('EthereumTransactionScreen: preparing fails', () => {
  it("warns 'There was an error preparing your transaction…' with the revert reason, and nothing to approve", async () => {
    const error = new LatchkeyError('TRANSACTION_PREPARE_FAILED', undefined, {
      details: { reason: 'ERC20: transfer amount exceeds balance', message: 'execution reverted' },
    })
    const props = renderScreen(
      ethereumRequest({
        prepare: async () => {
          throw error
        },
      }),
    )
    const warning = await screen.findByTestId('lk-tx-prepare-error')
    expect(warning.textContent).toBe(
      'There was an error preparing your transaction. Your transaction request will likely fail.' +
        'ERC20: transfer amount exceeds balance',
    )
    // The preview still shows what was asked; there is no fee without a preparation.
    expect(rowText('Amount')).toBe('0.5 ETH')
    expect(rowText('Estimated fee')).toBeNull()
    expect(button('Approve').disabled).toBe(true)
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
    // Closing now reports why, not a rejection.
    expect(props.onExitChange).toHaveBeenLastCalledWith(error)
  })

  it("says 'There was an issue preparing your transaction' when the node cannot be asked, and retries", async () => {
    const prepare = vi
      .fn<EthereumTransactionRequest['prepare']>()
      .mockRejectedValueOnce(new Error('fetch failed'))
      .mockImplementation(async (input) => preparedOf(input))
    const props = renderScreen(ethereumRequest({ prepare }))
    const warning = await screen.findByTestId('lk-tx-prepare-error')
    expect(warning.querySelector('strong')?.textContent).toBe(
      'There was an issue preparing your transaction',
    )
    expect(props.onExitChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ code: 'TRANSACTION_PREPARE_ERROR' }),
    )
    fireEvent.click(button('Retry'))
    await waitFor(() => expect(button('Approve').disabled).toBe(false))
    expect(prepare).toHaveBeenNthCalledWith(2, ethSend)
    expect(screen.queryByTestId('lk-tx-prepare-error')).toBeNull()
    expect(props.onExitChange).toHaveBeenLastCalledWith(null)
  })

  it('shows a plain preview when the token cannot be read', async () => {
    renderScreen(
      ethereumRequest({
        preview: async () => {
          throw new Error('eth_call failed')
        },
      }),
    )
    await screen.findByText('Network')
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    expect(rowText('Amount')).toBe('0.5 ETH')
  })
})
