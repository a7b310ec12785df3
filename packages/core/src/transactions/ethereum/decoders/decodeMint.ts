import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction, TokenKind } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// `mint` is not part of any token standard; these are the three shapes most
// contracts use (OpenZeppelin presets, ERC721A drops, ERC-1155 presets).
const abi = parseAbi([
  'function mint(address to, uint256 value)', // 0x40c10f19
  'function mint(uint256 quantity)', // 0xa0712d68
  'function mint(address to, uint256 id, uint256 amount, bytes data)', // 0x731133e9
])

/**
 * Decodes the common `mint` shapes (spec 03 §3 "Decoded details"), or answers
 * `undefined` for any other call:
 *
 * - `mint(address to, uint256 value)`: with `tokenKind` 'erc721' or 'erc1155'
 *   the value is the `tokenId` of the new NFT (OpenZeppelin's ERC-721
 *   `mint(to, tokenId)`); otherwise, and with no hint, it is an ERC-20
 *   `amount` minted to `transferTo`.
 * - `mint(uint256 quantity)`: mints to the caller, so `transferTo` is unset.
 *   The number is always an `amount`, a quantity of NFTs for an NFT kind
 *   (ERC721A public drops) or of ERC-20 units otherwise.
 * - `mint(address to, uint256 id, uint256 amount, bytes data)`: ERC-1155,
 *   `amount` units of `tokenId`, whatever the hint.
 *
 * @example
 * const details = decodeMint(tx.data, 'erc721')
 * // { action: 'mint', transferTo: '0x…', tokenId: 7n, isNFTIsh: true, … }
 */
export function decodeMint(
  data: Hex,
  tokenKind?: TokenKind,
): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const base = { action: 'mint', functionName: 'mint', args: call.args } as const
  const isNFTKind = tokenKind === 'erc721' || tokenKind === 'erc1155'
  const { args } = call
  if (args.length === 4) {
    const [to, id, amount] = args
    return { ...base, isErc20Ish: false, isNFTIsh: true, transferTo: to, tokenId: id, amount }
  }
  if (args.length === 1) {
    return { ...base, isErc20Ish: !isNFTKind, isNFTIsh: isNFTKind, amount: args[0] }
  }
  const [to, value] = args
  return {
    ...base,
    isErc20Ish: !isNFTKind,
    isNFTIsh: isNFTKind,
    transferTo: to,
    ...(isNFTKind ? { tokenId: value } : { amount: value }),
  }
}
