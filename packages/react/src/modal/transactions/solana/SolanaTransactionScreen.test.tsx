import { LatchkeyError } from '@latchkey/core'
import type { PreparedSolanaTransaction } from '@latchkey/core/solana'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SolanaTransactionRequest } from '../../../transaction-requests.ts'
import { fundRequest } from '../../funding/fixtures.test-helper.ts'
import { rowLabels, rowText } from '../fixtures.test-helper.ts'
import {
  computeBudget,
  preparedOf,
  RECIPIENT,
  SOL,
  solanaRequest,
  solTransfer,
  WALLET,
  WIRE,
} from './fixtures.test-helper.ts'
import { SolanaTransactionScreen } from './SolanaTransactionScreen.tsx'

// The funding chunk ('Add funds'), loaded once before the clock is faked.
beforeAll(() => import('../../funding/FundWalletScreen.tsx'))
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

describe('SolanaTransactionScreen: the confirm screen', () => {
  it('shows a spinner while preparing, then Amount, To, Network, Estimated fee and the wallet’s balance', async () => {
    let answer: (prepared: PreparedSolanaTransaction) => void = () => {}
    const prepare = vi.fn(() => new Promise<PreparedSolanaTransaction>((r) => (answer = r)))
    await renderScreen(solanaRequest({ prepare }))
    expect(screen.getByRole('heading', { name: 'Confirm transaction' })).toBeTruthy()
    expect(screen.getByRole('status', { name: 'Preparing transaction' })).toBeTruthy()
    expect(button('Approve').disabled).toBe(true)
    expect(prepare).toHaveBeenCalledWith(WIRE)
    await act(async () => answer(preparedOf()))
    expect(rowLabels()).toEqual(['Amount', 'To', 'Network', 'Estimated fee'])
    expect(rowText('Amount')).toBe('0.5 SOL')
    expect(rowText('To')).toBe('7EcDhS…FLtV')
    const to = screen.getByTitle(RECIPIENT) as HTMLAnchorElement
    expect(to.href).toBe(`https://explorer.solana.com/address/${RECIPIENT}?cluster=devnet`)
    expect(rowText('Network')).toBe('Devnet')
    expect(rowText('Estimated fee')).toBe('0.000005 SOL')
    const card = screen.getByTestId('lk-wallet-card')
    expect(card.textContent).toBe('9WzDXw…AWWM2 SOL')
    expect(button('Approve').disabled).toBe(false)
  })

  it("names mainnet-beta 'Solana' and an app's own cluster by its name", async () => {
    const mainnet = { name: 'mainnet-beta', rpcUrl: 'https://api.mainnet-beta.solana.com' }
    await renderScreen(solanaRequest({ cluster: mainnet }))
    expect(rowText('Network')).toBe('Solana')
    expect((screen.getByTitle(RECIPIENT) as HTMLAnchorElement).href).toBe(
      `https://explorer.solana.com/address/${RECIPIENT}`,
    )
    cleanup()
    await renderScreen(solanaRequest({ cluster: { name: 'localnet', rpcUrl: 'http://x' } }))
    expect(rowText('Network')).toBe('localnet')
  })

  it("'Advanced' lists every instruction: its type and fields, an unknown one by program and discriminator", async () => {
    const swap = {
      type: 'jupiter-swap-shared-accounts-route',
      inAmount: SOL,
      quotedOutAmount: 150_000_000n,
      slippageBps: 50,
      sourceMint: 'So11111111111111111111111111111111111111112',
      destinationMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      program: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
    } as const
    await renderScreen(
      solanaRequest({ prepare: async () => preparedOf([computeBudget, solTransfer, swap]) }),
    )
    expect(rowLabels()).toEqual(['Amount', 'Swap', 'To', 'Network', 'Estimated fee'])
    expect(rowText('Swap')).toBe('1 SOL → ~150000000 EPjFWd…Dt1v (0.5% slippage)')
    expect(screen.queryByTestId('lk-tx-instructions')).toBeNull()
    fireEvent.click(button('Advanced'))
    expect(button('Advanced').getAttribute('aria-expanded')).toBe('true')
    const items = screen.getAllByTestId('lk-tx-instruction').map((item) => item.textContent)
    expect(items).toEqual([
      'Unknown instructionProgram: ComputeBudget111111111111111111111111111111\nDiscriminator: 0x02',
      `SOL transferFrom: ${WALLET}\nTo: ${RECIPIENT}\nAmount: 0.5 SOL`,
      'Jupiter swap (shared accounts route)In: 1 SOL\nQuoted out: 150000000 EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v\nSlippage: 0.5%',
    ])
  })

  it("without the funds and no funding: Approve disabled and 'Add funds on Solana to complete transaction.'", async () => {
    await renderScreen(
      solanaRequest({ prepare: async () => preparedOf(undefined, { balance: 0n }) }),
    )
    expect(button('Approve').disabled).toBe(true)
    expect(screen.getByText('Add funds on Solana to complete transaction.')).toBeTruthy()
  })

  it("with funding: 'Add funds' opens funding for the amount plus the fee; closing it prepares again", async () => {
    const prepare = vi
      .fn<SolanaTransactionRequest['prepare']>()
      .mockResolvedValueOnce(preparedOf(undefined, { balance: 0n }))
      .mockResolvedValueOnce(preparedOf())
    const { request: funding } = fundRequest({ chainType: 'solana', network: 'Devnet' })
    const addFunds = vi.fn(async (_lamports: bigint) => funding)
    await renderScreen(solanaRequest({ prepare, addFunds }))
    expect(screen.queryByText('Add funds on Solana to complete transaction.')).toBeNull()
    fireEvent.click(button('Add funds'))
    expect(addFunds).toHaveBeenCalledWith(SOL / 2n + 5000n)
    // The funding flow in place of the confirm screen; closing it comes back and prepares again.
    await vi.waitFor(() => screen.getByRole('heading', { name: 'Add funds to your Acme wallet' }))
    fireEvent.click(button('Close'))
    await flush()
    expect(prepare).toHaveBeenCalledTimes(2)
    expect(button('Approve').disabled).toBe(false)
  })

  it("words the title and button with the app's uiOptions, and 'Not now' cancels", async () => {
    const props = await renderScreen(
      solanaRequest({
        uiOptions: {
          transactionInfo: { action: 'swap' },
          buttonText: 'Swap now',
          description: 'Swap 1 SOL for USDC',
          isCancellable: true,
        },
      }),
    )
    expect(screen.getByRole('heading', { name: 'Approve swap' })).toBeTruthy()
    expect(screen.getByText('Swap 1 SOL for USDC')).toBeTruthy()
    expect(button('Swap now').disabled).toBe(false)
    fireEvent.click(button('Not now'))
    expect(props.onCancel).toHaveBeenCalledOnce()
  })

  it('shows why a transaction cannot be prepared, and closing then reports it', async () => {
    const error = new LatchkeyError('TRANSACTION_PREPARE_ERROR')
    const prepare = vi.fn().mockRejectedValueOnce(error).mockResolvedValueOnce(preparedOf())
    const props = await renderScreen(solanaRequest({ prepare }))
    expect(screen.getByTestId('lk-tx-prepare-error').textContent).toContain(
      'There was an issue preparing your transaction',
    )
    expect(button('Approve').disabled).toBe(true)
    expect(props.onExitChange).toHaveBeenLastCalledWith(error)
    fireEvent.click(button('Retry'))
    await flush()
    expect(props.onExitChange).toHaveBeenLastCalledWith(null)
    expect(button('Approve').disabled).toBe(false)
  })
})
