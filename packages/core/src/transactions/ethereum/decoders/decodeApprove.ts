import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction, TokenKind } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// ERC-20 approve(spender, amount) and ERC-721 approve(to, tokenId) share one
// selector (0x095ea7b3); only the contract's kind tells them apart.
const abi = parseAbi(['function approve(address spender, uint256 value)'])

/**
 * Decodes `approve(address,uint256)` calldata (spec 03 §3 "Decoded details"),
 * or answers `undefined` for any other call. The same function exists in
 * ERC-20 (an allowance `amount`) and ERC-721 (one `tokenId`): with
 * `tokenKind: 'erc721'` the number is a token id and the details are NFT-ish;
 * with any other kind, or no hint at all, it is read as an ERC-20 allowance,
 * the common case and the one where an unlimited approval matters.
 *
 * @example
 * const details = decodeApprove(tx.data, token.kind)
 * if (details?.isErc20Ish && isUnlimitedApproval(details.amount!)) show('Maximum')
 */
export function decodeApprove(
  data: Hex,
  tokenKind?: TokenKind,
): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [spender, value] = call.args
  const isNFTIsh = tokenKind === 'erc721'
  return {
    action: 'approve',
    functionName: 'approve',
    isErc20Ish: !isNFTIsh,
    isNFTIsh,
    spender,
    ...(isNFTIsh ? { tokenId: value } : { amount: value }),
    args: call.args,
  }
}
