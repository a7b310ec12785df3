import {
  parseTransferCheckedInstruction,
  parseTransferInstruction,
  TRANSFER_CHECKED_DISCRIMINATOR,
  TRANSFER_DISCRIMINATOR,
} from '@solana-program/token'
import { isTokenProgram } from './token-program.ts'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type SplTransferInstruction = SolanaInstructionOf<'spl-transfer'>

/**
 * Reads an SPL Token or Token-2022 `Transfer` (tag 3) or `TransferChecked`
 * (tag 12, which also names the mint and its decimals): `amount` base units
 * move from the `source` token account to `destination`, authorised by
 * `owner` (the owner or a delegate). Any other instruction, or a malformed
 * one, gives `undefined`.
 *
 * @example
 * decodeSplTransfer(instruction)
 * // { type: 'spl-transfer', source: '3yFw…', destination: '8Hk2…', owner: '9xQe…',
 * //   amount: 2_500_000n, mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6,
 * //   program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }
 */
export function decodeSplTransfer(
  instruction: DecodableInstruction,
): SplTransferInstruction | undefined {
  const program = instruction.programAddress
  if (!isTokenProgram(program)) return undefined
  const tag = instruction.data[0]
  if (tag === TRANSFER_DISCRIMINATOR) {
    const parsed = tryParse(() => parseTransferInstruction(instruction))
    if (!parsed) return undefined
    const { source, destination, authority } = parsed.accounts
    return {
      type: 'spl-transfer',
      source: source.address,
      destination: destination.address,
      owner: authority.address,
      amount: parsed.data.amount,
      program,
    }
  }
  if (tag === TRANSFER_CHECKED_DISCRIMINATOR) {
    const parsed = tryParse(() => parseTransferCheckedInstruction(instruction))
    if (!parsed) return undefined
    const { source, destination, authority, mint } = parsed.accounts
    return {
      type: 'spl-transfer',
      source: source.address,
      destination: destination.address,
      owner: authority.address,
      amount: parsed.data.amount,
      mint: mint.address,
      decimals: parsed.data.decimals,
      program,
    }
  }
  return undefined
}
