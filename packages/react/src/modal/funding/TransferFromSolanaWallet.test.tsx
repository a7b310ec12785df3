import { LatchkeyError } from '@latchkey/core'
import type { ConnectedEthereumExternalWallet } from '@latchkey/core/external'
import { formatUserMessage } from '@latchkey/protocol/errors'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import FundWalletScreen, { FUNDING_SUCCESS_CLOSE_MS } from './FundWalletScreen.tsx'
import { externalWallets, fundRequest, injectedWallet } from './fixtures.test-helper.ts'
import type { FundWalletRequest } from './request.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const FUNDED = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
const SOURCE = 'FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH'
const SOL = { symbol: 'SOL', decimals: 9 }
const heading = () => screen.getAllByRole('heading')[0]?.textContent
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement

const phantom = () =>
  ({
    type: 'solana',
    address: SOURCE,
    chainId: null,
    connectedAt: 0,
    walletClientType: 'phantom',
    connectorType: 'solana_adapter',
    imported: false,
    meta: { name: 'Phantom', icon: null, id: 'phantom' },
    signMessage: async () => new Uint8Array(64),
    disconnect: async () => undefined,
  }) as unknown as ConnectedEthereumExternalWallet

/** A Solana wallet to fund; the manager holds Phantom and an Ethereum wallet. */
function solanaRequest(overrides: Partial<FundWalletRequest> = {}) {
  const { request, drive } = fundRequest({
    chainType: 'solana',
    address: FUNDED,
    network: 'Devnet',
    amount: '0.25',
    options: [{ method: 'wallets', provider: null }],
    externalWallets: async () =>
      externalWallets([phantom(), injectedWallet('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')]),
    ...overrides,
  })
  const onClose = vi.fn()
  const onFunded = vi.fn()
  render(<FundWalletScreen request={request} onFunded={onFunded} onClose={onClose} />)
  return { request, drive, onClose, onFunded }
}

async function toAmount(drive: { token(t?: typeof SOL): Promise<void> }) {
  await drive.token(SOL)
  fireEvent.click(button('Transfer from wallet'))
  await act(async () => undefined)
  expect(heading()).toBe('Transfer from wallet')
  // Only the chain's wallets: Phantom, not the Ethereum one.
  expect(screen.queryByRole('button', { name: /^Test Wallet/ })).toBeNull()
  fireEvent.click(button(/^Phantom/))
  expect(heading()).toBe('Confirm or edit amount')
}

describe('Transfer from an external Solana wallet (spec 03 §2 "Transfer from wallet")', () => {
  it('sends the SOL from the picked Solana wallet, shows it pending, then Success! closing after 4 s', async () => {
    vi.useFakeTimers()
    let submit: (signature: string) => void = () => undefined
    let land: () => void = () => undefined
    const transfer = vi.fn(
      (_w, _a, _t, onSubmitted?: (s: string) => void) =>
        new Promise<string>((resolve) => {
          submit = (s) => onSubmitted?.(s)
          land = () => resolve('5sig')
        }),
    )
    const { drive, onClose, onFunded } = solanaRequest({ transfer })
    await toAmount(drive)
    await act(async () => fireEvent.click(button('Continue')))
    expect(transfer).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'solana', address: SOURCE }),
      '0.25',
      SOL,
      expect.any(Function),
    )
    expect(screen.getByText('Confirm in Phantom')).toBeTruthy()
    await act(async () => submit('5sig'))
    expect(screen.getByText('Sending 0.25 SOL to your wallet on Devnet.')).toBeTruthy()
    await act(async () => land())
    expect(heading()).toBe('Success!')
    expect(onFunded).toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(FUNDING_SUCCESS_CLOSE_MS))
    expect(onClose).toHaveBeenCalled()
  })

  it("'Wallet {address} does not have enough funds.' and the rejection message stay on the amount step", async () => {
    const insufficient = new LatchkeyError(
      'FUNDING_WALLET_INSUFFICIENT_FUNDS',
      formatUserMessage('FUNDING_WALLET_INSUFFICIENT_FUNDS', { address: SOURCE }).title,
      { details: { address: SOURCE } },
    )
    const transfer = vi
      .fn()
      .mockRejectedValueOnce(insufficient)
      .mockRejectedValueOnce(new LatchkeyError('FUNDING_USER_REJECTED'))
    const { drive } = solanaRequest({ transfer })
    await toAmount(drive)
    await act(async () => fireEvent.click(button('Continue')))
    expect(heading()).toBe('Confirm or edit amount')
    expect(screen.getByRole('alert').textContent).toBe(
      `Wallet ${SOURCE} does not have enough funds.`,
    )
    await act(async () => fireEvent.click(button('Continue')))
    expect(screen.getByRole('alert').textContent).toBe('Transaction was rejected by the user')
  })

  it("with a bridge, 'Transfer from another network' leads to the Ethereum wallets", async () => {
    const { drive } = solanaRequest({ bridge: { options: vi.fn(), send: vi.fn() } })
    await drive.token(SOL)
    fireEvent.click(button('Transfer from wallet'))
    await act(async () => undefined)
    fireEvent.click(button('Transfer from another network'))
    await act(async () => undefined)
    expect(heading()).toBe('Transfer from another network')
    expect(button(/^Test Wallet/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^Phantom/ })).toBeNull()
    // Back returns to the Solana wallets.
    fireEvent.click(button('Back'))
    expect(heading()).toBe('Transfer from wallet')
  })
})
