import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyInstance } from '../../../store.ts'
import type { SolanaStepResult, SolanaTransactionRequest } from '../../../transaction-requests.ts'
import { WalletScreen } from '../../WalletScreen.tsx'
import { rowLabels, rowText } from '../fixtures.test-helper.ts'
import { preparedOf, REFRESHED, SIGNATURE, solanaRequest, WIRE } from './fixtures.test-helper.ts'
import { SolanaTransactionScreen } from './SolanaTransactionScreen.tsx'

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
  const props = { onResult: vi.fn(), onDone: vi.fn(), onCancel: vi.fn(), onExitChange: vi.fn() }
  render(<SolanaTransactionScreen request={request} {...props} />)
  await flush()
  return props
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement

async function approve() {
  fireEvent.click(button('Approve'))
  await flush()
}

const LOGS = [
  'Program 11111111111111111111111111111111 invoke [1]',
  'Transfer: insufficient lamports 5000, need 10000',
  'Program 11111111111111111111111111111111 failed: custom program error: 0x1',
]

const onChain = (logs: string[] | null) =>
  new LatchkeyError('TRANSACTION_FAILURE', 'Transfer: insufficient lamports 5000, need 10000', {
    details: { signature: SIGNATURE, logs },
  })

describe('SolanaTransactionScreen: approving', () => {
  it("sends: 'Approving...', then 'Transaction complete!' with Total, Fees, To and the signature; 'All Done' closes", async () => {
    let finish: (result: SolanaStepResult) => void = () => {}
    const submit = vi.fn(() => new Promise<SolanaStepResult>((resolve) => (finish = resolve)))
    const props = await renderScreen(solanaRequest({ submit }))
    await approve()
    expect(submit).toHaveBeenCalledWith(WIRE)
    expect(button('Approving...').disabled).toBe(true)
    const result = { signedTransaction: WIRE, signature: SIGNATURE, fees: 5000n }
    await act(async () => finish(result))
    expect(screen.getByRole('heading', { name: 'Transaction complete!' })).toBeTruthy()
    expect(props.onResult).toHaveBeenCalledWith(result)
    expect(rowLabels()).toEqual(['Total', 'Fees', 'To'])
    expect(rowText('Total')).toBe('0.500005 SOL')
    expect(rowText('Fees')).toBe('0.000005 SOL')
    expect(rowText('To')).toBe('7EcDhS…FLtV')
    expect(screen.getByTestId('lk-tx-hash').textContent).toContain('Signature5VERv8…kQUW')
    expect(screen.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=devnet`,
    )
    // The receipt stays until the user is done (spec 03 §4: success shows the receipt).
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(props.onDone).not.toHaveBeenCalled()
    fireEvent.click(button('All Done'))
    expect(props.onDone).toHaveBeenCalledOnce()
  })

  it("signs only: 'Transaction signed!' with the estimated fee and no signature row", async () => {
    const submit = vi.fn(async () => ({ signedTransaction: WIRE }))
    const props = await renderScreen(solanaRequest({ mode: 'sign', submit }))
    await approve()
    expect(screen.getByRole('heading', { name: 'Transaction signed!' })).toBeTruthy()
    expect(props.onResult).toHaveBeenCalledWith({ signedTransaction: WIRE })
    expect(rowText('Fees')).toBe('0.000005 SOL')
    expect(screen.queryByTestId('lk-tx-hash')).toBeNull()
    fireEvent.click(button('All Done'))
    expect(props.onDone).toHaveBeenCalledOnce()
  })

  it("words the receipt with the app's successHeader and successDescription", async () => {
    await renderScreen(
      solanaRequest({ uiOptions: { successHeader: 'Swapped!', successDescription: 'Enjoy.' } }),
    )
    await approve()
    expect(screen.getByRole('heading', { name: 'Swapped!' })).toBeTruthy()
    expect(screen.getByText('Enjoy.')).toBeTruthy()
  })

  it("shows a failure by the ledger's log line, and 'Retry transaction' refreshes the blockhash, then prepares again", async () => {
    const prepare = vi.fn(async () => preparedOf())
    const refresh = vi.fn(async () => REFRESHED)
    const submit = vi
      .fn<SolanaTransactionRequest['submit']>()
      .mockRejectedValueOnce(onChain(LOGS))
      .mockResolvedValueOnce({ signedTransaction: REFRESHED, signature: SIGNATURE, fees: 5000n })
    const props = await renderScreen(solanaRequest({ prepare, refresh, submit }))
    await approve()
    expect(
      screen.getByRole('heading', { name: 'Transfer: insufficient lamports 5000, need 10000' }),
    ).toBeTruthy()
    expect(screen.getByText('Please try again.')).toBeTruthy()
    expect(screen.getByTestId('lk-tx-error').textContent).toBe('TRANSACTION_FAILURE')
    expect(screen.getByRole('link', { name: 'View on explorer' }).getAttribute('href')).toBe(
      `https://explorer.solana.com/tx/${SIGNATURE}?cluster=devnet`,
    )
    expect(props.onExitChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ code: 'TRANSACTION_FAILURE' }),
    )
    fireEvent.click(button('Retry transaction'))
    await flush()
    expect(refresh).toHaveBeenCalledWith(WIRE)
    expect(prepare).toHaveBeenLastCalledWith(REFRESHED)
    expect(props.onExitChange).toHaveBeenLastCalledWith(null)
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    await approve()
    expect(submit).toHaveBeenLastCalledWith(REFRESHED)
    expect(screen.getByRole('heading', { name: 'Transaction complete!' })).toBeTruthy()
  })

  it("falls back to 'Something went wrong.' when the logs say nothing about funds", async () => {
    const error = new LatchkeyError(
      'REQUEST_TIMEOUT',
      'The transaction was not confirmed in time',
      {
        details: { signature: SIGNATURE, logs: null },
      },
    )
    await renderScreen(solanaRequest({ submit: vi.fn().mockRejectedValue(error) }))
    await approve()
    expect(screen.getByRole('heading', { name: 'Something went wrong.' })).toBeTruthy()
    expect(screen.getByTestId('lk-tx-error').textContent).toBe(
      'REQUEST_TIMEOUTThe transaction was not confirmed in time',
    )
  })

  it('a wallet refusal keeps the confirm screen with the message', async () => {
    const submit = vi.fn().mockRejectedValue(new LatchkeyError('MFA_CANCELED'))
    await renderScreen(solanaRequest({ submit }))
    await approve()
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    expect(screen.getByRole('alert')).toBeTruthy()
    expect(button('Approve').disabled).toBe(false)
  })
})

describe("WalletScreen: 'solana-transaction'", () => {
  it('loads the Solana screen on its own chunk and completes the request with the result', async () => {
    await import('./SolanaTransactionScreen.tsx')
    const instance = {
      completeWalletScreen: vi.fn(),
      setWalletScreenExit: vi.fn(),
    } as unknown as LatchkeyInstance
    const onClose = vi.fn()
    const request = solanaRequest()
    render(<WalletScreen instance={instance} request={request} onClose={onClose} />)
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    await approve()
    fireEvent.click(button('All Done'))
    expect(instance.completeWalletScreen).toHaveBeenCalledWith(request, {
      signedTransaction: WIRE,
      signature: SIGNATURE,
      fees: 5000n,
    })
    expect(onClose).toHaveBeenCalledOnce()
  })
})
