import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction, TokenKind } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// ERC-20 and ERC-721 transferFrom share one selector (0x23b872dd).
const abi = parseAbi(['function transferFrom(address from, address to, uint256 value)'])

/**
 * Decodes `transferFrom(address,address,uint256)` calldata (spec 03 §3
 * "Decoded details"), or answers `undefined` for any other call. ERC-20 moves
 * an `amount` and ERC-721 moves one `tokenId` with the same function: with
 * `tokenKind: 'erc721'` the number is a token id and the details are NFT-ish;
 * with any other kind, or no hint, it is read as an ERC-20 amount.
 *
 * @example
 * const details = decodeTransferFrom(tx.data, 'erc721')
 * // { action: 'transfer', transferFrom, transferTo, tokenId, isNFTIsh: true, … }
 */
export function decodeTransferFrom(
  data: Hex,
  tokenKind?: TokenKind,
): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [from, to, value] = call.args
  const isNFTIsh = tokenKind === 'erc721'
  return {
    action: 'transfer',
    functionName: 'transferFrom',
    isErc20Ish: !isNFTIsh,
    isNFTIsh,
    transferFrom: from,
    transferTo: to,
    ...(isNFTIsh ? { tokenId: value } : { amount: value }),
    args: call.args,
  }
}
