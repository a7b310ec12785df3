import type { Address, Hex } from 'viem'
import { decodeApprove } from './decoders/decodeApprove.ts'
import { decodeErc721SafeTransferFrom } from './decoders/decodeErc721SafeTransferFrom.ts'
import { decodeErc1155SafeTransferFrom } from './decoders/decodeErc1155SafeTransferFrom.ts'
import { decodeMint } from './decoders/decodeMint.ts'
import { decodeSafeBatchTransferFrom } from './decoders/decodeSafeBatchTransferFrom.ts'
import { decodeSetApprovalForAll } from './decoders/decodeSetApprovalForAll.ts'
import { decodeTransfer } from './decoders/decodeTransfer.ts'
import { decodeTransferFrom } from './decoders/decodeTransferFrom.ts'
import type { DecodedEthereumTransaction, TokenKind } from './types.ts'

export { isUnlimitedApproval } from './decoders/isUnlimitedApproval.ts'

/** The part of a transaction request that the decoding reads. */
export interface DecodeEthereumTransactionParameters {
  to?: Address | null
  data?: Hex
  value?: bigint
}

export interface DecodeEthereumTransactionOptions {
  /**
   * What the `to` contract is, read from the chain. It decides whether the
   * shared ERC-20 / ERC-721 functions (`approve`, `transferFrom`,
   * `mint(address,uint256)`) carry an amount or a token id; without it, or
   * with 'unknown', they are read as ERC-20.
   */
  tokenKind?: TokenKind
}

type Decoder = (data: Hex, tokenKind?: TokenKind) => DecodedEthereumTransaction | undefined

// Every selector appears in exactly one decoder, so the order does not matter.
const decoders: readonly Decoder[] = [
  decodeApprove,
  decodeTransfer,
  decodeTransferFrom,
  decodeErc721SafeTransferFrom,
  decodeErc1155SafeTransferFrom,
  decodeSetApprovalForAll,
  decodeSafeBatchTransferFrom,
  decodeMint,
]

const generic = (): DecodedEthereumTransaction => ({
  action: 'transaction',
  isErc20Ish: false,
  isNFTIsh: false,
  args: [],
})

/**
 * Reads what an Ethereum transaction request does, for the confirm screen's
 * title and rows (spec 03 §3 "Decoded details"). Token approvals, transfers,
 * batch transfers and mints are recognised by their function selector; a
 * plain send (no data, or '0x'), a contract deployment (no `to`), an unknown
 * function, or calldata that does not decode is the generic 'transaction'
 * with no `functionName` and no args. `value` is not copied into the details:
 * the native amount is the request's own `value`.
 *
 * @example
 * const details = decodeEthereumTransaction(
 *   { to: usdc, data: '0x095ea7b3…' },
 *   { tokenKind: 'erc20' },
 * )
 * // { action: 'approve', functionName: 'approve', spender: '0x…', amount: 2n ** 256n - 1n, isErc20Ish: true, … }
 */
export function decodeEthereumTransaction(
  tx: DecodeEthereumTransactionParameters,
  options: DecodeEthereumTransactionOptions = {},
): DecodedEthereumTransaction {
  const { to, data } = tx
  // Without `to` the data is contract creation code, not a call.
  if (!to || !data || data === '0x') return generic()
  for (const decode of decoders) {
    const details = decode(data, options.tokenKind)
    if (details) return details
  }
  return generic()
}
