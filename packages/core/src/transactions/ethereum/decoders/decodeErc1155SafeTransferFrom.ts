import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// ERC-1155 single transfer, selector 0xf242432a.
const abi = parseAbi([
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
])

/**
 * Decodes ERC-1155 `safeTransferFrom(address,address,uint256,uint256,bytes)`
 * calldata (spec 03 §3 "Decoded details"): `amount` units of token `tokenId`
 * move from `transferFrom` to `transferTo`. Answers `undefined` for any other
 * call, including the ERC-721 overloads of the same name.
 *
 * @example
 * const details = decodeErc1155SafeTransferFrom(tx.data)
 * // { action: 'transfer', tokenId: 1n, amount: 5n, isNFTIsh: true, … }
 */
export function decodeErc1155SafeTransferFrom(data: Hex): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [from, to, id, amount] = call.args
  return {
    action: 'transfer',
    functionName: 'safeTransferFrom',
    isErc20Ish: false,
    isNFTIsh: true,
    transferFrom: from,
    transferTo: to,
    tokenId: id,
    amount,
    args: call.args,
  }
}
