/**
 * Runs a program client's parser, or answers `undefined` when it throws: an
 * instruction with the right tag but too few accounts or truncated data (which
 * the program itself would refuse). The decoders use it so that such an
 * instruction is shown as 'unknown' instead of breaking the whole transaction,
 * as `decodeCall` does for Ethereum calldata.
 *
 * @example
 * const parsed = tryParse(() => parseTransferSolInstruction(instruction))
 * if (!parsed) return undefined
 */
export function tryParse<T>(parse: () => T): T | undefined {
  try {
    return parse()
  } catch {
    return undefined
  }
}
