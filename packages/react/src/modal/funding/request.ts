import type { LatchkeyError } from '@latchkey/core'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedExternalWallet,
  ConnectedSolanaExternalWallet,
  ExternalWallets,
} from '@latchkey/core/external'
import type { CardProvider, FundingMethod, FundingOption } from '@latchkey/protocol/schemas'

// The funding screens' request (spec 03 §3 "Funding request"), in a leaf that
// imports no hook, store or screen, like wallet-requests.ts: the hook builds
// it, the store holds it and the screens draw it.

/** `uiConfig` of a funding request: wording overrides; `null` suppresses a line. */
export interface FundWalletUiConfig {
  /** The chooser's title. Default 'Add funds to your {wallet name} wallet'. */
  landing?: { title?: string }
  /** Receive funds' title. Default 'Receive {amount} {symbol}'; null: none. */
  receiveFundsTitle?: string | null
  /** Receive funds' subtitle. Default 'Scan this code or copy your wallet address…'; null: none. */
  receiveFundsSubtitle?: string | null
}

/** The asset being funded once known: what the screens show and amounts are counted in. */
export interface FundingToken {
  symbol: string
  decimals: number
  /** The ERC-20 contract or SPL mint; absent for the chain's native currency. */
  address?: string
}

/** Spec 03 §4 "Card on-ramp status": what a MoonPay status poll said. */
export type CardOnrampStatus =
  | 'pending'
  | 'waitingAuthorization'
  | 'awaitingAuthorization'
  | 'completed'
  | 'failed'
  | 'serviceFailure'

/** Spec 03 §4 "Coinbase-style onramp status", and `closed`: the popup closed 3 times. */
export type CoinbaseOnrampStatus =
  | 'pending-in-flow'
  | 'pending-after-flow'
  | 'success'
  | 'error'
  | 'closed'

/** One balance reading of Receive funds. */
export interface BalanceUpdate {
  balance: bigint
  funded: boolean
  enough: boolean
}

/** A chain to bridge SOL from (spec 03 §3 "Bridge quote option"), as the picker shows it. */
export interface BridgeOption {
  chainId: number
  chainName: string
  /** The paying wallet's balance there ('0.8 ETH'). */
  balance: string
  /** What leaves the wallet for the SOL asked ('0.0213 ETH'). */
  pay: string
}

/** Where a bridge deposit is: asked in the wallet, sent, then bridging. */
export type BridgeStep = 'confirm' | 'submitted' | 'bridging'

/** A card or exchange purchase started in a popup. */
export interface OnrampStart {
  /** The provider's page to open in the popup (server-signed). */
  url: string
  /** MoonPay: the external transaction id; Coinbase: the partner user id. */
  id: string
}

/**
 * Spec 03 "Funding method chooser", "Receive funds", "Transfer from wallet",
 * "Card on-ramp status": one wallet to fund and the operations the screens
 * call (core does the work; the screens only render).
 */
export interface FundWalletRequest {
  screen: 'fund-wallet'
  chainType: 'ethereum' | 'solana'
  /** The wallet being funded. */
  address: string
  /** '{wallet name}' of the chooser's title: the app's name (null: not loaded). */
  walletName: string | null
  /** Solana, Devnet, Testnet or the chain's name (spec 03 §2 "Receive funds"). */
  network: string
  /** The requested amount, a decimal string in whole tokens ('0.1'). */
  amount: string
  /** What the chooser offers, in order (core `resolveFundingOptions`). */
  options: FundingOption[]
  /** Launched once on entry (spec 03 §2). */
  defaultFundingMethod?: FundingMethod
  /** 'Pay with card' uses this provider when it is offered. */
  preferredCardProvider?: CardProvider
  uiConfig: FundWalletUiConfig
  /** The asset's symbol and decimals: at once for the native currency, read for a token. */
  token(): Promise<FundingToken>
  /** The QR code's payload (EIP-681 or Solana Pay). */
  paymentUri(token: FundingToken): string
  /**
   * Polls the wallet's balance of the asset every 2 s (spec 03 §4 "Manual
   * receive"): `funded` once it rose above the first reading, `enough` once
   * it holds the requested amount.
   */
  watchBalance(
    token: FundingToken,
    onChange: (update: BalanceUpdate) => void,
    signal: AbortSignal,
  ): void
  /** MoonPay: a signed widget URL for this wallet, and its status polled after the start delay. */
  startMoonpay(token: FundingToken): Promise<OnrampStart>
  watchMoonpay(id: string, onStatus: (status: CardOnrampStatus) => void, signal: AbortSignal): void
  /** Coinbase Onramp: 'buy' (card) or 'send' (from the user's Coinbase account). */
  startCoinbase(token: FundingToken, experience: 'buy' | 'send'): Promise<OnrampStart>
  watchCoinbase(
    partnerUserId: string,
    popup: { readonly closed: boolean },
    onStatus: (status: CoinbaseOnrampStatus) => void,
    signal: AbortSignal,
  ): void
  /** The external-wallet manager (loaded on first use): connected wallets and more to connect. */
  externalWallets(): Promise<ExternalWallets>
  /**
   * Sends `amount` of the asset from an external wallet to this one and
   * waits for it to land; FUNDING_WALLET_INSUFFICIENT_FUNDS or
   * FUNDING_USER_REJECTED as a LatchkeyError.
   */
  transfer(
    wallet: ConnectedExternalWallet,
    amount: string,
    token: FundingToken,
    onSubmitted?: (hash: string) => void,
  ): Promise<string>
  /**
   * Solana with cross-chain bridging on: 'Transfer from another network' —
   * quotes per funded chain of an external Ethereum wallet, then the deposit
   * and the bridge followed to the end (BRIDGE_* errors).
   */
  bridge?: {
    options(wallet: ConnectedEthereumExternalWallet, amount: string): Promise<BridgeOption[]>
    send(
      wallet: ConnectedEthereumExternalWallet,
      option: BridgeOption,
      /** The deposit's hash from 'submitted' on. */
      onStep: (step: BridgeStep, hash?: string) => void,
    ): Promise<void>
  }
  /**
   * Ethereum (native currency) with cross-chain bridging on: 'Transfer from
   * another network' from a connected external Solana wallet — its SOL
   * quoted for the amount asked, then the deposit and the bridge followed.
   */
  bridgeFromSolana?: {
    options(wallet: ConnectedSolanaExternalWallet, amount: string): Promise<BridgeOption[]>
    send(
      wallet: ConnectedSolanaExternalWallet,
      option: BridgeOption,
      onStep: (step: BridgeStep, signature?: string) => void,
    ): Promise<void>
  }
  /** An error to show on the chooser at once (an earlier attempt's). */
  error?: LatchkeyError
  /**
   * Opened by a confirm screen's 'Add funds' (spec 03 §3): the flow is drawn
   * inside that screen, and closing it (close button, Continue, a success's
   * 4 s) returns there, which checks the balance again.
   */
  comingFromSendTransactionScreen?: boolean
}
