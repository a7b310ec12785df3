import type { Address, Chain, Hex, TransactionReceipt } from 'viem'

/**
 * Spec 03 §3 "Ethereum transaction request": what an app asks the wallet to
 * send or sign. Quantities are bigints (or hex / decimal strings from an
 * EIP-1193 caller, normalised by `normalizeEthereumRequest`). Missing `nonce`,
 * `gas` and fees are filled in by `prepareEthereumTransaction`.
 */
export interface EthereumTransactionInput {
  /** The chain to use; default the wallet's current chain. Must be one of the app's chains. */
  chainId?: number
  to?: Address | null
  data?: Hex
  value?: bigint
  nonce?: number
  gas?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  /** A legacy (type 0) transaction when set without the EIP-1559 fees. */
  gasPrice?: bigint
}

/** Which token standard a contract speaks, read from the chain (ERC-165, then `decimals()`). */
export type TokenKind = 'erc20' | 'erc721' | 'erc1155' | 'unknown'

/** What the confirm screen shows about a token contract. */
export interface TokenInfo {
  address: Address
  kind: TokenKind
  name?: string
  symbol?: string
  /** ERC-20 only; default 18 when the contract does not say (spec 03 §9). */
  decimals?: number
}

/** Spec 03 §3 "Decoded details". */
export type EthereumAction = 'approve' | 'transfer' | 'batch transfer' | 'mint' | 'transaction'

export interface DecodedEthereumTransaction {
  action: EthereumAction
  /** The decoded function ('approve', 'transfer', 'transferFrom', 'safeTransferFrom', …); undefined for plain sends and unknown calls. */
  functionName?: string
  /** ERC-20 shaped (approve / transfer / transferFrom of an amount). */
  isErc20Ish: boolean
  /** ERC-721 / ERC-1155 shaped (token ids, operators). */
  isNFTIsh: boolean
  spender?: Address
  operator?: Address
  approved?: boolean
  transferFrom?: Address
  transferTo?: Address
  tokenId?: bigint
  tokenIds?: bigint[]
  amount?: bigint
  amounts?: bigint[]
  /** The decoded arguments in ABI order (empty for a plain send). */
  args: readonly unknown[]
}

/** One asset's change for the wallet (spec 03 §3 "Transaction scan result" assets_diffs). */
export interface AssetDiff {
  asset: {
    type: 'NATIVE' | 'ERC20' | 'ERC721' | 'ERC1155'
    address?: Address
    name?: string
    symbol?: string
    logo_url?: string
    decimals?: number
  }
  in: Array<{ value: bigint; usd_price?: number; token_id?: bigint }>
  out: Array<{ value: bigint; usd_price?: number; token_id?: bigint }>
}

/**
 * Spec 03 §3 "Transaction scan result": what an app's scan function (or the
 * built-in simulation through the node's `eth_simulateV1`) answers.
 */
export interface TransactionScanResult {
  validation?: {
    status: 'Success' | 'Error'
    result_type: 'Benign' | 'Warning' | 'Malicious'
    description?: string
    /** Shown with a Warning or Malicious result. */
    reason?: string
  }
  simulation?: {
    status: 'Success' | 'Error'
    error?: string
    params?: { from: Address; to?: Address | null; value?: bigint; data?: Hex }
    assets_diffs: AssetDiff[]
    /** Approvals the transaction grants: who may spend what. */
    exposures: Array<{
      asset: AssetDiff['asset']
      spenders: Array<{ address: Address; value?: bigint; is_approved_for_all?: boolean }>
    }>
  }
}

/** The host's scan function (spec 03 §7 "Other": metadata domain, chain_id, request { method, params }). */
export type TransactionScanner = (input: {
  metadata: { domain: string }
  chain_id: number
  account_address: Address
  request: { method: 'eth_sendTransaction' | 'eth_signTransaction'; params: [unknown] }
}) => Promise<TransactionScanResult>

/** A request ready to sign: every field filled, and what it costs. */
export interface PreparedEthereumTransaction {
  chain: Chain
  from: Address
  request: {
    chainId: number
    type: 'eip1559' | 'legacy'
    to: Address | null
    data?: Hex
    value: bigint
    nonce: number
    gas: bigint
    maxFeePerGas?: bigint
    maxPriorityFeePerGas?: bigint
    gasPrice?: bigint
  }
  /** gas × max fee per gas (or gas price): the most the fee can be, in wei. */
  estimatedFee: bigint
  balance: bigint
  /** balance ≥ value + estimatedFee. */
  hasFunds: boolean
}

/** Spec 03 §4: a sent transaction's outcome. */
export interface EthereumSendResult {
  hash: Hex
  receipt: TransactionReceipt
}
