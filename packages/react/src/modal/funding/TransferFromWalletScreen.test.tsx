import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import FundWalletScreen, { FUNDING_SUCCESS_CLOSE_MS } from './FundWalletScreen.tsx'
import { ETH, externalWallets, fundRequest, injectedWallet } from './fixtures.test-helper.ts'
import type { FundWalletRequest } from './request.ts'
import { TransferFromWalletScreen } from './TransferFromWalletScreen.tsx'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const SOURCE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement
const amountInput = () => screen.getByLabelText('Amount') as HTMLInputElement

async function show(overrides: Partial<FundWalletRequest> = {}) {
  const { request } = fundRequest({
    externalWallets: async () => externalWallets([injectedWallet(SOURCE)]),
    ...overrides,
  })
  const onTransferred = vi.fn()
  render(
    <TransferFromWalletScreen
      request={request}
      token={ETH}
      onBack={() => {}}
      onTransferred={onTransferred}
    />,
  )
  await act(async () => undefined)
  return { request, onTransferred }
}

describe('Transfer from wallet (spec 03 §2, §4 "Funding flow")', () => {
  it("lists the connected wallets, then 'Confirm or edit amount' with the requested amount", async () => {
    await show()
    expect(screen.getByRole('heading').textContent).toBe('Transfer from wallet')
    fireEvent.click(button(/^Test Wallet/))
    expect(screen.getByRole('heading').textContent).toBe('Confirm or edit amount')
    expect(amountInput().value).toBe('0.1')
  })

  it('keeps digits and one decimal point; Continue only above 0', async () => {
    await show()
    fireEvent.click(button(/^Test Wallet/))
    fireEvent.change(amountInput(), { target: { value: '1a.2.3' } })
    expect(amountInput().value).toBe('1.23')
    expect(button('Continue').disabled).toBe(false)
    fireEvent.change(amountInput(), { target: { value: '0.00' } })
    expect(button('Continue').disabled).toBe(true)
    fireEvent.change(amountInput(), { target: { value: '' } })
    expect(button('Continue').disabled).toBe(true)
  })

  it('sends the edited amount from the picked wallet; pending until it lands', async () => {
    let land: (hash: string) => void = () => undefined
    const transfer = vi.fn(
      (_w, _a, _t, onSubmitted?: (hash: string) => void) =>
        new Promise<string>((resolve) => {
          land = (hash) => {
            onSubmitted?.(hash)
            resolve(hash)
          }
        }),
    )
    const { onTransferred } = await show({ transfer })
    fireEvent.click(button(/^Test Wallet/))
    fireEvent.change(amountInput(), { target: { value: '0.25' } })
    fireEvent.click(button('Continue'))
    expect(screen.getByText('Confirm in Test Wallet')).toBeTruthy()
    expect(transfer.mock.calls[0]?.[0].address).toBe(SOURCE)
    expect(transfer.mock.calls[0]?.[1]).toBe('0.25')
    await act(async () => land('0xabc'))
    expect(onTransferred).toHaveBeenCalledWith('0.25')
  })

  it("'Wallet {address} does not have enough funds.' when the source cannot pay", async () => {
    const message = `Wallet ${SOURCE} does not have enough funds.`
    await show({
      transfer: async () => {
        throw new LatchkeyError('FUNDING_WALLET_INSUFFICIENT_FUNDS', undefined, {
          details: { address: SOURCE },
        })
      },
    })
    fireEvent.click(button(/^Test Wallet/))
    await act(async () => fireEvent.click(button('Continue')))
    expect(screen.getByRole('alert').textContent).toBe(message)
    expect(screen.getByRole('heading').textContent).toBe('Confirm or edit amount')
  })

  it("the user's no reads 'Transaction was rejected by the user'", async () => {
    await show({
      transfer: async () => {
        throw new LatchkeyError('FUNDING_USER_REJECTED')
      },
    })
    fireEvent.click(button(/^Test Wallet/))
    await act(async () => fireEvent.click(button('Continue')))
    expect(screen.getByRole('alert').textContent).toBe('Transaction was rejected by the user')
  })

  it('success is shown, then the modal closes after 4 s', async () => {
    vi.useFakeTimers()
    const { request, drive } = fundRequest({
      externalWallets: async () => externalWallets([injectedWallet(SOURCE)]),
    })
    const onClose = vi.fn()
    const onFunded = vi.fn()
    render(<FundWalletScreen request={request} onFunded={onFunded} onClose={onClose} />)
    await drive.token()
    fireEvent.click(button('Transfer from wallet'))
    await act(async () => undefined)
    fireEvent.click(button(/^Test Wallet/))
    await act(async () => fireEvent.click(button('Continue')))
    expect(screen.getByRole('heading').textContent).toBe('Success!')
    expect(onFunded).toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(FUNDING_SUCCESS_CLOSE_MS - 1))
    expect(onClose).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(onClose).toHaveBeenCalled()
  })
})
