import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

// Same function (0xa22cb465) in ERC-721 and ERC-1155.
const abi = parseAbi(['function setApprovalForAll(address operator, bool approved)'])

/**
 * Decodes `setApprovalForAll(address,bool)` calldata (spec 03 §3 "Decoded
 * details"): grants (`approved: true`) or revokes (`false`) `operator` the
 * right to move every token the wallet holds in an ERC-721 or ERC-1155
 * collection. Answers `undefined` for any other call.
 *
 * @example
 * const details = decodeSetApprovalForAll(tx.data)
 * // { action: 'approve', operator: '0x…', approved: true, isNFTIsh: true, … }
 */
export function decodeSetApprovalForAll(data: Hex): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [operator, approved] = call.args
  return {
    action: 'approve',
    functionName: 'setApprovalForAll',
    isErc20Ish: false,
    isNFTIsh: true,
    operator,
    approved,
    args: call.args,
  }
}
