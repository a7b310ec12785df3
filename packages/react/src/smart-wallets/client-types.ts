import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import type { Address, Chain, Hex, TransactionReceipt } from 'viem'
import type { SignMessageUiOptions } from '../store.ts'
import type { TransactionUiOptions } from '../transaction-requests.ts'
import type { TypedData } from '../wallet-requests.ts'
import type { SmartWalletHandle } from './types.ts'

// The smart wallet client's public shapes (client.ts builds it, eip1193.ts
// wraps it): apart, so that neither module imports the other's.

/** The smart wallet's EIP-1193 provider: `request` only, as the embedded wallet's (no events). */
export interface SmartWalletEthereumProvider {
  request(args: { method: string; params?: unknown }): Promise<unknown>
}

/** A smart wallet's transaction: a call, with the chain it is meant for (default the client's). */
export type SmartWalletTransaction = Pick<EthereumTransactionInput, 'to' | 'value' | 'data'> & {
  chainId?: number
  /** viem's style: the chain object instead of its id. */
  chain?: Pick<Chain, 'id'>
}

export interface SmartWalletTransactionOptions {
  /** Wording overrides, 'Not now', or no screen at all (`showWalletUIs: false`). */
  uiOptions?: TransactionUiOptions
}

export interface SmartWalletSignOptions {
  /** Overrides of the sign screen's wording, 'Not now', or no screen at all. */
  uiOptions?: SignMessageUiOptions
}

/** One user operation sent and included. */
export interface SmartWalletCallsResult {
  userOperationHash: Hex
  /** The bundle transaction that carried the operation. */
  transactionHash: Hex
  receipt: TransactionReceipt
}

/**
 * The user's smart wallet on one chain, as `useSmartWallets()` hands it out:
 * viem's wallet-client verbs, each through the confirm or sign screen.
 */
export interface SmartWalletClient {
  account: { address: Address }
  chain: Chain
  /** Spec 01 `smart_wallet_type`: 'safe', 'simple' or 'simple_7702'. */
  type: SmartWalletHandle['type']
  /** The app pays the gas on this chain. */
  sponsored: boolean
  /** One call as one user operation; resolves with the transaction hash once included. */
  sendTransaction(tx: SmartWalletTransaction, options?: SmartWalletTransactionOptions): Promise<Hex>
  /** 1 to n calls, confirmed one by one ('(n / m)'), sent as ONE user operation (atomic, in order). */
  sendCalls(
    calls: SmartWalletTransaction[],
    options?: SmartWalletTransactionOptions,
  ): Promise<SmartWalletCallsResult>
  /** EIP-191 by the smart account: ERC-1271, or ERC-6492 before it is deployed. */
  signMessage(parameters: { message: string }, options?: SmartWalletSignOptions): Promise<Hex>
  /** EIP-712 by the smart account: ERC-1271, or ERC-6492 before it is deployed. */
  signTypedData(typedData: TypedData, options?: SmartWalletSignOptions): Promise<Hex>
  /** Makes another of the app's smart-wallet chains the current one (every `useSmartWallets()` follows). */
  switchChain(parameters: { id: number }): Promise<void>
  /** EIP-1193 provider (with EIP-5792 `wallet_sendCalls`) for wagmi and viem; one per client. */
  getEthereumProvider(): SmartWalletEthereumProvider
}
