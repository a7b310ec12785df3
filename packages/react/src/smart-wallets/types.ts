import type { SmartWalletType } from '@latchkey/protocol/schemas'
import type { Address, Chain, Hex, TransactionReceipt } from 'viem'
import type { TypedData } from '../wallet-requests.ts'

// What the React layer needs of core's `createEmbeddedSmartWallet` (the
// contract of issue 24, /docs/smart-wallets.md): the screens and the hook
// are written against this shape, so they type-check and test apart from
// core's permissionless machinery.

/** One call of a batch (EIP-5792 `wallet_sendCalls`). */
export interface SmartWalletCall {
  to: Address
  value?: bigint
  data?: Hex
}

/** A user operation estimated for the confirm screen. */
export interface PreparedSmartWalletCalls {
  /** The operation as the bundler estimated it; its gas limits, when present, fill the screen's gas. */
  userOperation: unknown
  /** The most the operation can cost in the chain's currency, in wei (the screen's 'Estimated fee'). */
  maxCost: bigint
  /** A paymaster pays: the screen shows 'Sponsored'. */
  sponsored: boolean
}

export interface SentSmartWalletCalls {
  userOperationHash: Hex
  transactionHash: Hex
  /** The bundle transaction's receipt. */
  receipt: TransactionReceipt
  /** False when the calls reverted inside the operation (included, and paid for). */
  success?: boolean
}

/** Core's `EmbeddedSmartWallet`: the user's smart account on one chain, owned by their embedded wallet. */
export interface SmartWalletHandle {
  address: Address
  type: SmartWalletType
  version: string
  chain: Chain
  sponsored: boolean
  isDeployed(): Promise<boolean>
  prepareCalls(calls: readonly SmartWalletCall[]): Promise<PreparedSmartWalletCalls>
  sendCalls(calls: readonly SmartWalletCall[]): Promise<SentSmartWalletCalls>
  signMessage(message: string | { raw: Hex }): Promise<Hex>
  signTypedData(typedData: TypedData): Promise<Hex>
}
