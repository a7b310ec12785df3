import { containsBytes } from '@solana/kit'
import {
  getTransferSolDiscriminatorBytes,
  parseTransferSolInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type SolTransferInstruction = SolanaInstructionOf<'sol-transfer'>

/**
 * Reads a System program `TransferSol` (u32 tag 2, lamports u64): lamports
 * leave `from` for `to`. Any other instruction, or a malformed one, gives
 * `undefined`.
 *
 * @example
 * decodeSolTransfer(instruction)
 * // { type: 'sol-transfer', from: '9xQe…', to: '7vKb…', lamports: 1_500_000n }
 */
export function decodeSolTransfer(
  instruction: DecodableInstruction,
): SolTransferInstruction | undefined {
  if (instruction.programAddress !== SYSTEM_PROGRAM_ADDRESS) return undefined
  if (!containsBytes(instruction.data, getTransferSolDiscriminatorBytes(), 0)) return undefined
  const parsed = tryParse(() => parseTransferSolInstruction(instruction))
  if (!parsed) return undefined
  const { accounts, data } = parsed
  return {
    type: 'sol-transfer',
    from: accounts.source.address,
    to: accounts.destination.address,
    lamports: data.amount,
  }
}
