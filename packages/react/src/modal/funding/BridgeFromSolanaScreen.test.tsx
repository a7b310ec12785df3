import { LatchkeyError } from '@latchkey/core'
import type { ConnectedEthereumExternalWallet } from '@latchkey/core/external'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bridgeToEthereumSuccessLine } from './BridgeFromSolanaScreen.tsx'
import FundWalletScreen, { FUNDING_SUCCESS_CLOSE_MS, successText } from './FundWalletScreen.tsx'
import { externalWallets, fundRequest } from './fixtures.test-helper.ts'
import type { BridgeOption, BridgeStep, FundWalletRequest } from './request.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const SOLANA_SOURCE = 'FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH'
const DEVNET: BridgeOption = {
  chainId: 1936682084,
  chainName: 'Devnet',
  balance: '2 SOL',
  pay: '0.52 SOL',
}
const heading = () => screen.getAllByRole('heading')[0]?.textContent
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement

/** A connected Solana wallet as the manager lists it. */
const phantom = () =>
  ({
    type: 'solana',
    address: SOLANA_SOURCE,
    chainId: null,
    connectedAt: 0,
    walletClientType: 'phantom',
    connectorType: 'solana_adapter',
    imported: false,
    meta: { name: 'Phantom', icon: null, id: 'phantom' },
    signMessage: async () => new Uint8Array(64),
    disconnect: async () => undefined,
  }) as unknown as ConnectedEthereumExternalWallet

function ethereumRequest(
  bridgeFromSolana: NonNullable<FundWalletRequest['bridgeFromSolana']>,
  overrides: Partial<FundWalletRequest> = {},
) {
  return fundRequest({
    amount: '0.02',
    options: [{ method: 'wallets', provider: null }],
    externalWallets: async () => externalWallets([phantom()]),
    bridgeFromSolana,
    ...overrides,
  })
}

function mount(request: FundWalletRequest) {
  const onClose = vi.fn()
  render(<FundWalletScreen request={request} onFunded={vi.fn()} onClose={onClose} />)
  return onClose
}

/** The chooser → 'Transfer from wallet' → 'Transfer from another network' → Phantom → Continue. */
async function walk(driveToken: () => Promise<void>) {
  await driveToken()
  fireEvent.click(button('Transfer from wallet'))
  await act(async () => undefined)
  fireEvent.click(button('Transfer from another network'))
  await act(async () => undefined)
  expect(heading()).toBe('Transfer from another network')
  fireEvent.click(button(/^Phantom/))
  expect(heading()).toBe('Confirm or edit amount')
  await act(async () => fireEvent.click(button('Continue')))
}

describe("'Transfer from another network': Solana → Ethereum (spec 03 §2, §4)", () => {
  it('quotes the amount asked from the Solana wallet: what it pays in SOL and its balance', async () => {
    const options = vi.fn(async () => [DEVNET])
    const { request, drive } = ethereumRequest({ options, send: vi.fn() })
    mount(request)
    await walk(() => drive.token())
    expect(options).toHaveBeenCalledWith(
      expect.objectContaining({ address: SOLANA_SOURCE }),
      '0.02',
    )
    expect(button(/^Devnet/).textContent).toContain('Pay 0.52 SOL · balance 2 SOL')
  })

  it('shows each step, then the success line, and closes after 4 s', async () => {
    vi.useFakeTimers()
    let step: (s: BridgeStep) => void = () => undefined
    let arrive: () => void = () => undefined
    const { request, drive } = ethereumRequest({
      options: async () => [DEVNET],
      send: (_w, _o, onStep) =>
        new Promise<void>((resolve) => {
          step = onStep
          arrive = resolve
        }),
    })
    const onClose = mount(request)
    await walk(() => drive.token())
    await act(async () => fireEvent.click(button(/^Devnet/)))
    expect(screen.getByText('Confirm in your wallet')).toBeTruthy()
    await act(async () => step('submitted'))
    expect(screen.getByText('Deposit in progress')).toBeTruthy()
    await act(async () => step('bridging'))
    expect(screen.getByText('Bridging to Base')).toBeTruthy()
    await act(async () => arrive())
    expect(heading()).toBe('Success!')
    // The spec's line, its 'Success!' as the title and the rest under it (not said twice).
    expect(
      screen.getByText(successText(bridgeToEthereumSuccessLine('0.02', 'ETH', 'Acme'))),
    ).toBeTruthy()
    expect(screen.queryAllByText(/Success!/)).toHaveLength(1)
    expect(bridgeToEthereumSuccessLine('0.02', 'ETH', 'Acme')).toBe(
      'Success! You’ve successfully added 0.02 ETH to your Acme wallet. It may take a minute before the funds are available to use.',
    )
    await act(() => vi.advanceTimersByTimeAsync(FUNDING_SUCCESS_CLOSE_MS - 1))
    expect(onClose).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(onClose).toHaveBeenCalled()
  })

  it('a refunded bridge says so and links to the refund status', async () => {
    const refundUrl = 'https://testnets.relay.link/transaction/0xabc'
    const { request, drive } = ethereumRequest({
      options: async () => [DEVNET],
      send: async () => {
        throw new LatchkeyError('BRIDGE_FAILED', undefined, { details: { refundUrl } })
      },
    })
    mount(request)
    await walk(() => drive.token())
    await act(async () => fireEvent.click(button(/^Devnet/)))
    expect(screen.getByRole('alert').textContent).toContain(
      'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.',
    )
    expect(screen.getByRole('link', { name: 'Check the refund status' }).getAttribute('href')).toBe(
      refundUrl,
    )
  })

  it('no SOL: its message on the amount step', async () => {
    const { request, drive } = ethereumRequest({
      options: async () => {
        throw new LatchkeyError('BRIDGE_INSUFFICIENT_BALANCE')
      },
      send: vi.fn(),
    })
    mount(request)
    await walk(() => drive.token())
    expect(heading()).toBe('Confirm or edit amount')
    expect(screen.getByRole('alert').textContent).toBe(
      'Your wallet does not have enough funds to bridge this amount.',
    )
  })

  it('no bridge for a token (the bridge delivers the native currency), nor without one', async () => {
    const { request, drive } = ethereumRequest({ options: vi.fn(), send: vi.fn() })
    mount(request)
    await drive.token({
      symbol: 'USDC',
      decimals: 6,
      address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    })
    fireEvent.click(button('Transfer from wallet'))
    await act(async () => undefined)
    expect(screen.queryByRole('button', { name: 'Transfer from another network' })).toBeNull()
    cleanup()
    const plain = fundRequest({ options: [{ method: 'wallets', provider: null }] })
    render(<FundWalletScreen request={plain.request} onFunded={vi.fn()} onClose={vi.fn()} />)
    await plain.drive.token()
    fireEvent.click(button('Transfer from wallet'))
    await act(async () => undefined)
    expect(screen.queryByRole('button', { name: 'Transfer from another network' })).toBeNull()
  })
})
