import { type Abi, type DecodeFunctionDataReturnType, decodeFunctionData, type Hex } from 'viem'

/**
 * Decodes calldata against an ABI, or answers `undefined` when the selector is
 * not in it or the arguments do not decode (truncated or malformed calldata).
 * The decoders use it so that a call they cannot read falls back to the
 * generic 'transaction' details instead of breaking the confirm screen.
 *
 * @example
 * const call = decodeCall(parseAbi(['function transfer(address to, uint256 amount)']), data)
 * if (call) console.log(call.functionName, call.args)
 */
export function decodeCall<const abi extends Abi>(
  abi: abi,
  data: Hex,
): DecodeFunctionDataReturnType<abi> | undefined {
  try {
    return decodeFunctionData({ abi, data })
  } catch {
    return undefined
  }
}
