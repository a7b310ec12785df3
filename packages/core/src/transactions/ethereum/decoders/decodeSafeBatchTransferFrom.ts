import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// ERC-1155 batch transfer, selector 0x2eb2c2d6.
const abi = parseAbi([
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
])

/**
 * Decodes ERC-1155
 * `safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)` calldata
 * (spec 03 §3 "Decoded details"): `amounts[i]` units of token `tokenIds[i]`
 * move from `transferFrom` to `transferTo`. Answers `undefined` for any other
 * call. The two lists are passed through as decoded; the contract, not the
 * wallet, rejects lists of different lengths.
 *
 * @example
 * const details = decodeSafeBatchTransferFrom(tx.data)
 * // { action: 'batch transfer', tokenIds: [1n, 2n], amounts: [10n, 1n], isNFTIsh: true, … }
 */
export function decodeSafeBatchTransferFrom(data: Hex): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [from, to, ids, amounts] = call.args
  return {
    action: 'batch transfer',
    functionName: 'safeBatchTransferFrom',
    isErc20Ish: false,
    isNFTIsh: true,
    transferFrom: from,
    transferTo: to,
    tokenIds: [...ids],
    amounts: [...amounts],
    args: call.args,
  }
}
