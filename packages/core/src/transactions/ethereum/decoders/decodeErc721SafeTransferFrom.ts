import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// Both ERC-721 overloads: 0x42842e0e (no data) and 0xb88d4fde (with data).
const abi = parseAbi([
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
])

/**
 * Decodes ERC-721 `safeTransferFrom(address,address,uint256)` and
 * `safeTransferFrom(address,address,uint256,bytes)` calldata (spec 03 §3
 * "Decoded details"): one NFT, `tokenId`, moves from `transferFrom` to
 * `transferTo`. Answers `undefined` for any other call, including the
 * five-argument ERC-1155 `safeTransferFrom` (see
 * `decodeErc1155SafeTransferFrom`).
 *
 * @example
 * const details = decodeErc721SafeTransferFrom(tx.data)
 * // { action: 'transfer', functionName: 'safeTransferFrom', tokenId: 42n, isNFTIsh: true, … }
 */
export function decodeErc721SafeTransferFrom(data: Hex): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [from, to, tokenId] = call.args
  return {
    action: 'transfer',
    functionName: 'safeTransferFrom',
    isErc20Ish: false,
    isNFTIsh: true,
    transferFrom: from,
    transferTo: to,
    tokenId,
    args: call.args,
  }
}
