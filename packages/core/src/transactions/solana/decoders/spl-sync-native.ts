import { parseSyncNativeInstruction, SYNC_NATIVE_DISCRIMINATOR } from '@solana-program/token'
import { isTokenProgram } from './token-program.ts'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type SplSyncNativeInstruction = SolanaInstructionOf<'spl-sync-native'>

/**
 * Reads an SPL Token or Token-2022 `SyncNative` (tag 17): a wrapped-SOL
 * account's token amount is brought up to its lamports, typically right after
 * a SOL transfer into it. Any other instruction, or a malformed one, gives
 * `undefined`.
 *
 * @example
 * decodeSplSyncNative(instruction)
 * // { type: 'spl-sync-native', account: '3yFw…',
 * //   program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }
 */
export function decodeSplSyncNative(
  instruction: DecodableInstruction,
): SplSyncNativeInstruction | undefined {
  if (!isTokenProgram(instruction.programAddress)) return undefined
  if (instruction.data[0] !== SYNC_NATIVE_DISCRIMINATOR) return undefined
  const accounts = tryParse(() => parseSyncNativeInstruction(instruction).accounts)
  if (!accounts) return undefined
  return {
    type: 'spl-sync-native',
    account: accounts.account.address,
    program: instruction.programAddress,
  }
}
