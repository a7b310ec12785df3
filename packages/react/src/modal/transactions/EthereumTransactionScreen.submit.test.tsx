import { LatchkeyError } from '@latchkey/core'
import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EthereumStepResult, EthereumTransactionRequest } from '../../transaction-requests.ts'
import { EthereumTransactionScreen } from './EthereumTransactionScreen.tsx'
import {
  ethereumRequest,
  ethSend,
  HASH,
  preparedOf,
  receiptOf,
  SECOND_HASH,
} from './fixtures.test-helper.ts'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

function renderScreen(request: EthereumTransactionRequest) {
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<EthereumTransactionScreen request={request} {...props} />)
  return props
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement

/** Waits for Approve to be pressable, then presses it. */
async function approve() {
  await waitFor(() => expect(button('Approve').disabled).toBe(false))
  fireEvent.click(button('Approve'))
}

const reverted = () =>
  new LatchkeyError('TRANSACTION_REVERTED', undefined, {
    details: { hash: HASH, receipt: receiptOf(HASH, 'reverted') },
  })

describe('EthereumTransactionScreen: submitting', () => {
  it("sends: 'Approving...', then the receipt with the hash and 'All Done'", async () => {
    let finish: (result: EthereumStepResult) => void = () => {}
    const submit = vi.fn(() => new Promise<EthereumStepResult>((resolve) => (finish = resolve)))
    const props = renderScreen(ethereumRequest({ submit }))
    await approve()
    expect(button('Approving...').disabled).toBe(true)
    const result = { hash: HASH, receipt: receiptOf(HASH) }
    await act(async () => finish(result))
    expect(screen.getByRole('heading', { name: 'Transaction complete!' })).toBeTruthy()
    expect(screen.getByText("You're all set.")).toBeTruthy()
    expect(props.onResult).toHaveBeenCalledWith([result])
    const hash = screen.getByTestId('lk-tx-hash')
    expect(hash.textContent).toContain('0xabab…abab')
    expect(screen.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://explorer.example/tx/${HASH}`,
    )
    expect(props.onDone).not.toHaveBeenCalled()
    fireEvent.click(button('All Done'))
    expect(props.onDone).toHaveBeenCalledOnce()
  })

  it("words the receipt with the app's successHeader and successDescription", async () => {
    renderScreen(
      ethereumRequest({
        uiOptions: { successHeader: 'Minted!', successDescription: 'Your ticket is in.' },
      }),
    )
    await approve()
    expect(await screen.findByRole('heading', { name: 'Minted!' })).toBeTruthy()
    expect(screen.getByText('Your ticket is in.')).toBeTruthy()
  })

  it('signs only: Success, the signed transaction, and done 1.4 s later', async () => {
    vi.useFakeTimers()
    const flush = () => act(() => vi.advanceTimersByTimeAsync(0))
    const props = renderScreen(
      ethereumRequest({ mode: 'sign', submit: async () => ({ signedTransaction: '0x02f8' }) }),
    )
    await flush()
    fireEvent.click(button('Approve'))
    await flush()
    expect(button('Success').disabled).toBe(true)
    expect(props.onResult).toHaveBeenCalledWith([{ signedTransaction: '0x02f8' }])
    await act(() => vi.advanceTimersByTimeAsync(1_399))
    expect(props.onDone).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(props.onDone).toHaveBeenCalledOnce()
    expect(screen.queryByRole('heading', { name: 'Transaction complete!' })).toBeNull()
  })

  it("shows a reverted transaction as 'Transaction failed' with its hash, and 'Retry transaction' prepares it again with a fresh nonce", async () => {
    const input: EthereumTransactionInput = { ...ethSend, nonce: 7 }
    const prepare = vi.fn(async (i: EthereumTransactionInput) => preparedOf(i))
    const submit = vi
      .fn<EthereumTransactionRequest['submit']>()
      .mockRejectedValueOnce(reverted())
      .mockResolvedValueOnce({ hash: SECOND_HASH, receipt: receiptOf(SECOND_HASH) })
    const props = renderScreen(ethereumRequest({ requests: [input], prepare, submit }))
    await approve()
    expect(await screen.findByRole('heading', { name: 'Transaction failed' })).toBeTruthy()
    expect(screen.getByText('Please try again.')).toBeTruthy()
    expect(screen.getByTestId('lk-tx-error').textContent).toBe('TRANSACTION_REVERTED')
    expect(screen.getByTestId('lk-tx-hash').textContent).toContain('0xabab…abab')
    expect(screen.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://explorer.example/tx/${HASH}`,
    )
    // Closing here reports the failure, not a rejection.
    expect(props.onExitChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ code: 'TRANSACTION_REVERTED' }),
    )
    expect(submit.mock.calls[0]?.[0].request.nonce).toBe(7)
    fireEvent.click(button('Retry transaction'))
    expect(props.onExitChange).toHaveBeenLastCalledWith(null)
    await screen.findByRole('heading', { name: 'Confirm transaction' })
    // Nonce 7 was spent by the broadcast: the retry asks for a new one.
    expect(prepare).toHaveBeenLastCalledWith(ethSend)
    await approve()
    await screen.findByRole('heading', { name: 'Transaction complete!' })
    expect(submit.mock.calls[1]?.[0].request.nonce).toBe(3)
  })

  it('treats a reverted receipt returned by submit as the same failure', async () => {
    renderScreen(
      ethereumRequest({
        submit: async () => ({ hash: HASH, receipt: receiptOf(HASH, 'reverted') }),
      }),
    )
    await approve()
    expect(await screen.findByRole('heading', { name: 'Transaction failed' })).toBeTruthy()
    expect(screen.getByTestId('lk-tx-hash')).toBeTruthy()
  })

  it('keeps the nonce when nothing was broadcast, and shows an unknown error’s message', async () => {
    const input: EthereumTransactionInput = { ...ethSend, nonce: 7 }
    const prepare = vi.fn(async (i: EthereumTransactionInput) => preparedOf(i))
    renderScreen(
      ethereumRequest({
        requests: [input],
        prepare,
        submit: async () => {
          throw new Error('socket hang up')
        },
      }),
    )
    await approve()
    expect(
      await screen.findByRole('heading', { name: 'The transaction could not be completed' }),
    ).toBeTruthy()
    expect(screen.getByTestId('lk-tx-error').textContent).toBe('socket hang up')
    expect(screen.queryByTestId('lk-tx-hash')).toBeNull()
    fireEvent.click(button('Retry transaction'))
    await waitFor(() => expect(prepare).toHaveBeenCalledTimes(2))
    expect(prepare).toHaveBeenLastCalledWith(input)
  })

  it('returns to the confirm screen with the message when the user cancels the MFA check', async () => {
    const submit = vi
      .fn<EthereumTransactionRequest['submit']>()
      .mockRejectedValueOnce(new LatchkeyError('MFA_CANCELED'))
      .mockResolvedValueOnce({ hash: HASH })
    renderScreen(ethereumRequest({ submit }))
    await approve()
    expect((await screen.findByRole('alert')).textContent).toBe('Verification canceled')
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    await approve()
    await screen.findByRole('heading', { name: 'Transaction complete!' })
  })

  it('recovers the wallet on the connect-wallet screen when signing needs it, then sends', async () => {
    const connect = vi.fn(async () => {})
    const submit = vi
      .fn<EthereumTransactionRequest['submit']>()
      .mockRejectedValueOnce(new LatchkeyError('RECOVERY_REQUIRED'))
      .mockResolvedValueOnce({ hash: HASH })
    const recovery = { connect, recover: vi.fn(), startCloudRecovery: vi.fn() }
    const props = renderScreen(ethereumRequest({ submit, recovery }))
    await approve()
    await screen.findByRole('heading', { name: 'Transaction complete!' })
    expect(connect).toHaveBeenCalledOnce()
    expect(submit).toHaveBeenCalledTimes(2)
    expect(submit.mock.calls[1]?.[0]).toBe(submit.mock.calls[0]?.[0])
    expect(props.onResult).toHaveBeenCalledWith([{ hash: HASH }])
  })
})
