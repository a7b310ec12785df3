import type { ConnectedEthereumExternalWallet, ExternalWallets } from '@latchkey/core/external'
import { act } from '@testing-library/react'
import { vi } from 'vitest'
import type {
  BalanceUpdate,
  CardOnrampStatus,
  CoinbaseOnrampStatus,
  FundingToken,
  FundWalletRequest,
} from './request.ts'

export const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906'
export const ETH: FundingToken = { symbol: 'ETH', decimals: 18 }

/** What a test drives: the pollers' callbacks, as the core pollers would call them. */
export interface Drive {
  balance(update: BalanceUpdate): Promise<void>
  moonpay(status: CardOnrampStatus): Promise<void>
  coinbase(status: CoinbaseOnrampStatus): Promise<void>
  /** Settles the token read. */
  token(token?: FundingToken): Promise<void>
  signals: AbortSignal[]
}

/**
 * A funding request for screen tests: its operations record their calls and
 * hand their callbacks to the test (the operations themselves are tested
 * against real peers in operations tests and the browser test).
 */
export function fundRequest(overrides: Partial<FundWalletRequest> = {}): {
  request: FundWalletRequest
  drive: Drive
} {
  let onBalance: ((u: BalanceUpdate) => void) | null = null
  let onMoonpay: ((s: CardOnrampStatus) => void) | null = null
  let onCoinbase: ((s: CoinbaseOnrampStatus) => void) | null = null
  let resolveToken: (t: FundingToken) => void = () => undefined
  const token = new Promise<FundingToken>((resolve) => {
    resolveToken = resolve
  })
  const signals: AbortSignal[] = []
  const request: FundWalletRequest = {
    screen: 'fund-wallet',
    chainType: 'ethereum',
    address: WALLET,
    walletName: 'Acme',
    network: 'Base',
    amount: '0.1',
    options: [
      { method: 'card', provider: 'moonpay' },
      { method: 'exchange', provider: 'coinbase' },
      { method: 'wallets', provider: null },
      { method: 'manual', provider: null },
    ],
    uiConfig: {},
    token: () => token,
    paymentUri: (t) => `ethereum:${WALLET}@8453?value=100000000000000000&symbol=${t.symbol}`,
    watchBalance: vi.fn((_t, onChange, signal) => {
      onBalance = onChange
      signals.push(signal)
    }),
    startMoonpay: vi.fn(async () => ({ url: 'https://buy.moonpay.com/?signature=x', id: 'ext-1' })),
    watchMoonpay: vi.fn((_id, onStatus, signal) => {
      onMoonpay = onStatus
      signals.push(signal)
    }),
    startCoinbase: vi.fn(async () => ({ url: 'https://pay.coinbase.com/buy', id: 'partner-1' })),
    watchCoinbase: vi.fn((_id, _popup, onStatus, signal) => {
      onCoinbase = onStatus
      signals.push(signal)
    }),
    externalWallets: vi.fn(async () => externalWallets([])),
    transfer: vi.fn(async () => '0xhash'),
    ...overrides,
  }
  return {
    request,
    drive: {
      balance: async (u) => act(async () => onBalance?.(u)),
      moonpay: async (s) => act(async () => onMoonpay?.(s)),
      coinbase: async (s) => act(async () => onCoinbase?.(s)),
      token: (t = ETH) =>
        act(async () => {
          resolveToken(t)
          await token
        }),
      signals,
    },
  }
}

/** A connected injected wallet, as the external-wallet manager lists it. */
export const injectedWallet = (address: string, name = 'Test Wallet') =>
  ({
    type: 'ethereum',
    address,
    chainId: 'eip155:8453',
    connectedAt: 0,
    walletClientType: 'test_wallet',
    connectorType: 'injected',
    imported: false,
    meta: { name, icon: null, id: 'test_wallet' },
    disconnect: async () => undefined,
    getEthereumProvider: () => {
      throw new Error('not used by the screen')
    },
    switchChain: async () => undefined,
  }) as ConnectedEthereumExternalWallet

/** The manager's surface the transfer screen reads: its wallets and the connect list. */
export function externalWallets(wallets: ConnectedEthereumExternalWallet[]): ExternalWallets {
  const state = { ethereum: [], solana: [], wallets, connectors: {} }
  return {
    getState: () => state,
    subscribe: () => () => undefined,
    options: () => [],
    connect: async () => {
      throw new Error('no wallet to connect')
    },
    restore: async () => undefined,
    recent: () => null,
  } as unknown as ExternalWallets
}

/** A popup window that records where it was sent. */
export function fakePopup() {
  const popup = { closed: false, location: { href: 'about:blank' }, close: vi.fn() }
  popup.close.mockImplementation(() => {
    popup.closed = true
  })
  return popup
}
