import { LatchkeyError } from '@latchkey/core'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BridgeFromWalletScreen, bridgeSuccessLine } from './BridgeFromWalletScreen.tsx'
import FundWalletScreen, { FUNDING_SUCCESS_CLOSE_MS, successText } from './FundWalletScreen.tsx'
import { externalWallets, fundRequest, injectedWallet } from './fixtures.test-helper.ts'
import type { BridgeOption, BridgeStep, FundWalletRequest } from './request.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const SOURCE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOLANA_WALLET = 'FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH'
const BASE: BridgeOption = {
  chainId: 8453,
  chainName: 'Base',
  balance: '0.8 ETH',
  pay: '0.0213 ETH',
}
const heading = () => screen.getAllByRole('heading')[0]?.textContent
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement

function solanaRequest(bridge: NonNullable<FundWalletRequest['bridge']>) {
  return fundRequest({
    chainType: 'solana',
    address: SOLANA_WALLET,
    network: 'Solana',
    amount: '1.5',
    options: [{ method: 'wallets', provider: null }],
    externalWallets: async () => externalWallets([injectedWallet(SOURCE)]),
    bridge,
  })
}

async function toOptions(request: FundWalletRequest) {
  render(
    <BridgeFromWalletScreen
      request={request as FundWalletRequest & { bridge: NonNullable<FundWalletRequest['bridge']> }}
      onBack={() => {}}
      onBridged={vi.fn()}
    />,
  )
  await act(async () => undefined)
  expect(heading()).toBe('Transfer from another network')
  fireEvent.click(button(/^Test Wallet/))
  expect(heading()).toBe('Confirm or edit amount')
  await act(async () => fireEvent.click(button('Continue')))
}

describe("'Transfer from another network' (spec 03 Solana bridge-funding)", () => {
  it('lists a quote per funded chain: what the wallet pays there and its balance', async () => {
    const options = vi.fn(async () => [BASE])
    const { request } = solanaRequest({ options, send: vi.fn() })
    await toOptions(request)
    expect(options).toHaveBeenCalledWith(expect.objectContaining({ address: SOURCE }), '1.5')
    expect(button(/^Base/).textContent).toContain('Pay 0.0213 ETH · balance 0.8 ETH')
  })

  it("no funds or no quote: the message on the amount step ('Unable to fetch quotes for bridging')", async () => {
    const { request } = solanaRequest({
      options: async () => {
        throw new LatchkeyError('BRIDGE_QUOTE_FAILED')
      },
      send: vi.fn(),
    })
    await toOptions(request)
    expect(screen.getByRole('alert').textContent).toBe('Unable to fetch quotes for bridging')
    expect(heading()).toBe('Confirm or edit amount')
  })

  it('a refunded bridge says so and links to the refund status', async () => {
    const refundUrl = 'https://relay.link/transaction/0xabc'
    const { request } = solanaRequest({
      options: async () => [BASE],
      send: async () => {
        throw new LatchkeyError('BRIDGE_FAILED', undefined, { details: { refundUrl } })
      },
    })
    await toOptions(request)
    await act(async () => fireEvent.click(button(/^Base/)))
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain(
      'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.',
    )
    expect(screen.getByRole('link', { name: 'Check the refund status' }).getAttribute('href')).toBe(
      refundUrl,
    )
  })

  it('shows each step, then the success line, and closes after 4 s', async () => {
    vi.useFakeTimers()
    let step: (s: BridgeStep) => void = () => undefined
    let arrive: () => void = () => undefined
    const { request, drive } = solanaRequest({
      options: async () => [BASE],
      send: (_w, _o, onStep) =>
        new Promise<void>((resolve) => {
          step = onStep
          arrive = resolve
        }),
    })
    const onClose = vi.fn()
    render(<FundWalletScreen request={request} onFunded={vi.fn()} onClose={onClose} />)
    await drive.token({ symbol: 'SOL', decimals: 9 })
    fireEvent.click(button('Transfer from wallet'))
    await act(async () => undefined)
    // The Solana wallets first; the bridge behind 'Transfer from another network'.
    fireEvent.click(button('Transfer from another network'))
    await act(async () => undefined)
    fireEvent.click(button(/^Test Wallet/))
    await act(async () => fireEvent.click(button('Continue')))
    await act(async () => fireEvent.click(button(/^Base/)))
    expect(screen.getByText('Confirm in your wallet')).toBeTruthy()
    await act(async () => step('bridging'))
    expect(screen.getByText('Bridging to Solana')).toBeTruthy()
    await act(async () => arrive())
    expect(heading()).toBe('Success!')
    // The spec's line, its 'Success!' as the title and the rest under it (not said twice).
    expect(screen.getByText(successText(bridgeSuccessLine('1.5', 'Acme')))).toBeTruthy()
    expect(screen.queryAllByText(/Success!/)).toHaveLength(1)
    expect(bridgeSuccessLine('1.5', 'Acme')).toBe(
      'Success! You’ve successfully added 1.5 SOL to your Acme wallet. It may take a minute before the funds are available to use.',
    )
    await act(() => vi.advanceTimersByTimeAsync(FUNDING_SUCCESS_CLOSE_MS))
    expect(onClose).toHaveBeenCalled()
  })
})
