import { type Hex, parseAbi } from 'viem'
import type { DecodedEthereumTransaction } from '../types.ts'
import { decodeCall } from './decodeCall.ts'

const abi = parseAbi(['function transfer(address to, uint256 value)'])

/**
 * Decodes ERC-20 `transfer(address,uint256)` calldata (spec 03 §3 "Decoded
 * details"): the wallet sends `amount` to `transferTo`. Answers `undefined`
 * for any other call. The sender is the wallet itself, so `transferFrom` is
 * left unset.
 *
 * @example
 * const details = decodeTransfer(tx.data)
 * if (details) rows.push(['To', details.transferTo], ['Amount', formatTokenAmount(details.amount!, 6)])
 */
export function decodeTransfer(data: Hex): DecodedEthereumTransaction | undefined {
  const call = decodeCall(abi, data)
  if (!call) return undefined
  const [to, amount] = call.args
  return {
    action: 'transfer',
    functionName: 'transfer',
    isErc20Ish: true,
    isNFTIsh: false,
    transferTo: to,
    amount,
    args: call.args,
  }
}
