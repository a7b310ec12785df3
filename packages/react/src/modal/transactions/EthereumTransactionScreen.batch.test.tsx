import { LatchkeyError } from '@latchkey/core'
import type { PreparedEthereumTransaction } from '@latchkey/core/transactions'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { parseEther } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EthereumStepResult, EthereumTransactionRequest } from '../../transaction-requests.ts'
import { EthereumTransactionScreen } from './EthereumTransactionScreen.tsx'
import {
  ethereumRequest,
  ethSend,
  HASH,
  preparedOf,
  RECIPIENT,
  receiptOf,
  rowText,
  usdcApprove,
} from './fixtures.test-helper.ts'

// A smart wallet's batch (issue 24): each call is confirmed on its own step,
// but the request's `submitAll` sends them together on the last 'Approve'.

afterEach(cleanup)

function renderScreen(request: EthereumTransactionRequest) {
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<EthereumTransactionScreen request={request} {...props} />)
  return props
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement

async function press(name: string) {
  await waitFor(() => expect(button(name).disabled).toBe(false))
  fireEvent.click(button(name))
}

const USER_OPERATION = `0x${'ef'.repeat(32)}` as const
const sent: EthereumStepResult = {
  hash: HASH,
  receipt: receiptOf(HASH),
  userOperationHash: USER_OPERATION,
}
const second = { to: RECIPIENT, value: parseEther('0.25') }

describe('EthereumTransactionScreen: a batch sent as one operation (submitAll)', () => {
  it("'(1 / 2)' Continue sends nothing; '(2 / 2)' Approve sends both steps once", async () => {
    const submit = vi.fn(async () => sent)
    const submitAll = vi.fn(async (_: PreparedEthereumTransaction[]) => sent)
    const props = renderScreen(
      ethereumRequest({ requests: [usdcApprove(5_000_000n), second], submit, submitAll }),
    )
    expect(await screen.findByRole('heading', { name: /\(1 \/ 2\)/ })).toBeTruthy()
    await press('Continue')
    expect(await screen.findByRole('heading', { name: /\(2 \/ 2\)/ })).toBeTruthy()
    expect(submitAll).not.toHaveBeenCalled()
    expect(props.onResult).not.toHaveBeenCalled()
    await press('Approve')
    await screen.findByRole('heading', { name: 'Transaction complete!' })
    expect(submit).not.toHaveBeenCalled()
    expect(submitAll).toHaveBeenCalledOnce()
    const steps = submitAll.mock.calls[0]?.[0] ?? []
    expect(steps.map((p) => p.request.to)).toEqual([usdcApprove(0n).to, RECIPIENT])
    expect(steps[1]?.request.value).toBe(parseEther('0.25'))
    // One operation, one result: its transaction hash on the receipt.
    expect(props.onResult).toHaveBeenCalledWith([sent])
    expect(screen.getByTestId('lk-tx-hash').textContent).toContain('0xabab…abab')
  })

  it("closing before the last 'Approve' leaves nothing sent (a rejection, not a result)", async () => {
    const submitAll = vi.fn(async () => sent)
    const props = renderScreen(ethereumRequest({ requests: [ethSend, second], submitAll }))
    await press('Continue')
    await screen.findByRole('heading', { name: /\(2 \/ 2\)/ })
    expect(props.onResult).not.toHaveBeenCalled()
    expect(submitAll).not.toHaveBeenCalled()
  })

  it("a failed operation opens the error screen; 'Retry transaction' sends the whole batch again", async () => {
    const submitAll = vi
      .fn<(steps: PreparedEthereumTransaction[]) => Promise<EthereumStepResult>>()
      .mockRejectedValueOnce(new LatchkeyError('TRANSACTION_FAILURE', 'bundler refused'))
      .mockResolvedValueOnce(sent)
    renderScreen(ethereumRequest({ requests: [ethSend, second], submitAll }))
    await press('Continue')
    await screen.findByRole('heading', { name: /\(2 \/ 2\)/ })
    await press('Approve')
    await press('Retry transaction')
    await screen.findByRole('heading', { name: /\(2 \/ 2\)/ })
    await press('Approve')
    await screen.findByRole('heading', { name: 'Transaction complete!' })
    expect(submitAll).toHaveBeenCalledTimes(2)
    expect(submitAll.mock.calls[1]?.[0]).toHaveLength(2)
  })

  it("a sponsored request shows 'Sponsored' in the fee row on every step", async () => {
    renderScreen(
      ethereumRequest({
        requests: [ethSend, second],
        sponsored: true,
        submitAll: async () => sent,
        prepare: async (input) => ({ ...preparedOf(input), estimatedFee: 0n }),
      }),
    )
    await waitFor(() => expect(rowText('Estimated fee')).toBe('Sponsored'))
    await press('Continue')
    await screen.findByRole('heading', { name: /\(2 \/ 2\)/ })
    await waitFor(() => expect(rowText('Estimated fee')).toBe('Sponsored'))
    await act(async () => {})
  })
})
