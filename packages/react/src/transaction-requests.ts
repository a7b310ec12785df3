import type { PreparedSolanaTransaction } from '@latchkey/core/solana'
import type {
  DecodedEthereumTransaction,
  EthereumTransactionInput,
  PreparedEthereumTransaction,
  TokenInfo,
  TransactionScanResult,
} from '@latchkey/core/transactions'
import type { Chain, Hex, TransactionReceipt } from 'viem'
import type { ConnectWalletStep } from './connect-wallet-step.ts'
import type { FundWalletRequest } from './modal/funding/request.ts'
import type { SolanaCluster } from './solana-clusters.ts'

// The transaction screens' requests (spec 03 "Ethereum transaction confirm",
// "Solana transaction confirm"), beside wallet-requests.ts and, like it,
// importing no hook, store or screen.

export type { SolanaCluster }

/**
 * Spec 03 §3 "uiOptions" of a transaction: wording overrides, 'Not now', or
 * no screen at all.
 */
export interface TransactionUiOptions {
  /** False sends (or signs) at once, without the confirm screen. Default true. */
  showWalletUIs?: boolean
  /** Shown under the title. */
  description?: string
  /** The submit button. Default 'Approve' ('Continue' before the last step). */
  buttonText?: string
  /** The title becomes 'Approve {action}'; `title` replaces it altogether. */
  transactionInfo?: {
    title?: string
    action?: string
    contractInfo?: { name?: string; url?: string }
  }
  /** The receipt's title and line. Default 'Transaction complete!' / "You're all set." */
  successHeader?: string
  successDescription?: string
  /** Offer 'Not now'. Default false (the close button is always there). */
  isCancellable?: boolean
}

/** What the confirm screen learns about a step before the user approves it. */
export interface EthereumStepPreview {
  decoded: DecodedEthereumTransaction
  /** The contract called, when the call is a token's. */
  token: TokenInfo | null
}

/**
 * The scan row's state: an app's scanner, or the built-in simulation
 * through the node's `eth_simulateV1`; `unsupported` when the node lacks it
 * (the screen says so plainly), `failed` with 'Transaction scan failed',
 * 'Simulation failed' or 'No tokens found' (the preview falls back to plain).
 */
export type EthereumScanOutcome =
  | { status: 'completed'; source: 'app' | 'simulation'; result: TransactionScanResult }
  | { status: 'failed'; source: 'app' | 'simulation'; message: string }
  | { status: 'unsupported'; reason: string }

/** One step's outcome: a hash and receipt when sent, the signed transaction when signed only. */
export interface EthereumStepResult {
  hash?: Hex
  receipt?: TransactionReceipt
  signedTransaction?: Hex
  /** A smart wallet's: the ERC-4337 user operation the transaction `hash` carried. */
  userOperationHash?: Hex
}

/**
 * Spec 03 "Ethereum transaction confirm": one request, or several (multi-step:
 * '(n / m)', 'Continue' until the last, then 'Approve'). The screen only
 * renders; core does the work through these functions.
 */
export interface EthereumTransactionRequest {
  screen: 'ethereum-transaction'
  /** 'send' waits for the receipt; 'sign' succeeds 1.4 s after signing (spec 03 §4). */
  mode: 'send' | 'sign'
  address: string
  chain: Chain
  requests: EthereumTransactionInput[]
  uiOptions: TransactionUiOptions
  /** Decodes a step and reads its token contract (symbol, decimals, kind). */
  preview(input: EthereumTransactionInput): Promise<EthereumStepPreview>
  /** Gas, fees, nonce and the funds check. `freshNonce` after a retry of a broadcast step. */
  prepare(input: EthereumTransactionInput): Promise<PreparedEthereumTransaction>
  /** The app's scanner, else the built-in simulation. */
  scan(prepared: PreparedEthereumTransaction): Promise<EthereumScanOutcome>
  /** Signs in the enclave, then (mode 'send') broadcasts and waits for the receipt. */
  submit(prepared: PreparedEthereumTransaction): Promise<EthereumStepResult>
  /**
   * 'Add funds' (the app has funding on): the funding flow for this wallet and
   * chain, asking `amount` wei (spec 03 §3 `comingFromSendTransactionScreen`).
   * The confirm screen draws it in place and comes back when it closes;
   * FUNDING_METHOD_NOT_ENABLED when nothing can fund this chain. Absent: the
   * button is disabled.
   */
  addFunds?: (amount: bigint) => Promise<FundWalletRequest>
  /** The gas is paid by the app (a paymaster): 'Sponsored' instead of the fee. */
  sponsored?: boolean
  /**
   * A line the screen shows under the wallet card, as it is: a smart
   * wallet's first EIP-7702 transaction says it upgrades the wallet.
   */
  note?: string
  /**
   * A smart wallet's batch: every step is confirmed ('(n / m)', 'Continue'),
   * but nothing goes out until the last 'Approve', which sends them all as
   * one user operation (EIP-5792 `wallet_sendCalls`: atomic, in order). Absent:
   * each step is `submit`ted on its own.
   */
  submitAll?: (prepared: PreparedEthereumTransaction[]) => Promise<EthereumStepResult>
  /**
   * The USD price of the chain's native currency (spec 03 §7), asked once
   * per screen for the dollar values of native amounts; null: none shown.
   * Absent on test and local chains, whose coins are worth nothing.
   */
  usdPrice?: () => Promise<number | null>
  /** The explorer page of a transaction hash, when the chain has an explorer. */
  explorerUrl(hash: Hex): string | null
  entropyId: string
  /** Signing needs a password or cloud consent on a new device: the connect-wallet screen, then on. */
  recovery?: ConnectWalletStep
}

/** One Solana transaction's outcome: the signed wire bytes, and when sent its signature and fees. */
export interface SolanaStepResult {
  signedTransaction: Uint8Array
  /** base58; set when sent. */
  signature?: string
  fees?: bigint
}

/**
 * Spec 03 "Solana transaction confirm": rows Amount, Swap, Network,
 * Estimated fee and 'Advanced' (the instructions); the receipt 'Transaction
 * signed!' (sign only) or 'Transaction complete!' with Total, Fees and To.
 * The screen only renders; core does the work through these functions.
 */
export interface SolanaTransactionRequest {
  screen: 'solana-transaction'
  /** 'send' signs, sends and confirms; 'sign' only signs. */
  mode: 'send' | 'sign'
  address: string
  cluster: SolanaCluster
  /** The wire transaction (legacy or v0) as the app built it. */
  transaction: Uint8Array
  uiOptions: TransactionUiOptions
  /** Fee, balance, decoded instructions, the funds check. */
  prepare(transaction: Uint8Array): Promise<PreparedSolanaTransaction>
  /** 'Retry transaction': the same transaction with a fresh recent blockhash. */
  refresh(transaction: Uint8Array): Promise<Uint8Array>
  /** Signs in the enclave; in mode 'send', sends and waits for confirmation. */
  submit(transaction: Uint8Array): Promise<SolanaStepResult>
  /** 'Add funds' (funding on): the funding flow asking `lamports`, as Ethereum's `addFunds`. */
  addFunds?: (lamports: bigint) => Promise<FundWalletRequest>
  /**
   * SOL's USD price (spec 03 §7: chain 0, symbol SOL), asked once per
   * screen; null: no dollar values. Absent off mainnet-beta.
   */
  usdPrice?: () => Promise<number | null>
  /** The explorer page of a signature on this cluster. */
  explorerUrl(signature: string): string
  entropyId: string
  recovery?: ConnectWalletStep
}
