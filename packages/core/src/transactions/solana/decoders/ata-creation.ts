import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  CREATE_ASSOCIATED_TOKEN_DISCRIMINATOR,
  CREATE_ASSOCIATED_TOKEN_IDEMPOTENT_DISCRIMINATOR,
  parseCreateAssociatedTokenIdempotentInstruction,
  parseCreateAssociatedTokenInstruction,
} from '@solana-program/token'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type AtaCreationInstruction = SolanaInstructionOf<'ata-creation'>

/**
 * Reads an Associated Token Account program `Create` (tag 0, or empty data as
 * older clients such as `@solana/spl-token` send it) or `CreateIdempotent`
 * (tag 1): `payer` funds the associated token account `ata` of `owner` for
 * `mint`. `program` is the program invoked (the ATA program), as for every
 * other instruction type; the token program the account is created under is
 * the instruction's sixth account. Any other instruction, or a malformed one,
 * gives `undefined`.
 *
 * @example
 * decodeAtaCreation(instruction)
 * // { type: 'ata-creation', payer: '9xQe…', ata: '3yFw…', owner: '7vKb…',
 * //   mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
 * //   program: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL' }
 */
export function decodeAtaCreation(
  instruction: DecodableInstruction,
): AtaCreationInstruction | undefined {
  if (instruction.programAddress !== ASSOCIATED_TOKEN_PROGRAM_ADDRESS) return undefined
  const accounts = tryParse(() => readAccounts(instruction))
  if (!accounts) return undefined
  return {
    type: 'ata-creation',
    payer: accounts.payer.address,
    ata: accounts.ata.address,
    owner: accounts.owner.address,
    mint: accounts.mint.address,
    program: instruction.programAddress,
  }
}

function readAccounts(instruction: DecodableInstruction) {
  switch (instruction.data[0] ?? CREATE_ASSOCIATED_TOKEN_DISCRIMINATOR) {
    case CREATE_ASSOCIATED_TOKEN_DISCRIMINATOR:
      // Create has no arguments; its data decoder wants the tag, which the
      // legacy empty form lacks.
      return parseCreateAssociatedTokenInstruction({
        ...instruction,
        data: new Uint8Array([CREATE_ASSOCIATED_TOKEN_DISCRIMINATOR]),
      }).accounts
    case CREATE_ASSOCIATED_TOKEN_IDEMPOTENT_DISCRIMINATOR:
      return parseCreateAssociatedTokenIdempotentInstruction(instruction).accounts
    default:
      return undefined
  }
}
