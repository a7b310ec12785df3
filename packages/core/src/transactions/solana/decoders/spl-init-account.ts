import type { Address } from '@solana/kit'
import {
  INITIALIZE_ACCOUNT_DISCRIMINATOR,
  INITIALIZE_ACCOUNT2_DISCRIMINATOR,
  INITIALIZE_ACCOUNT3_DISCRIMINATOR,
  parseInitializeAccount2Instruction,
  parseInitializeAccount3Instruction,
  parseInitializeAccountInstruction,
} from '@solana-program/token'
import { isTokenProgram } from './token-program.ts'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type SplInitAccountInstruction = SolanaInstructionOf<'spl-init-account'>

/**
 * Reads an SPL Token or Token-2022 `InitializeAccount` (tag 1, the owner as an
 * account), `InitializeAccount2` (tag 16) or `InitializeAccount3` (tag 18),
 * both with the owner in the data: `account` becomes a token account for
 * `mint` held by `owner`. Any other instruction, or a malformed one, gives
 * `undefined`.
 *
 * @example
 * decodeSplInitAccount(instruction)
 * // { type: 'spl-init-account', account: '3yFw…', mint: 'So11111111111111111111111111111111111111112',
 * //   owner: '9xQe…', program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }
 */
export function decodeSplInitAccount(
  instruction: DecodableInstruction,
): SplInitAccountInstruction | undefined {
  const program = instruction.programAddress
  if (!isTokenProgram(program)) return undefined
  const fields = tryParse(() => readFields(instruction))
  return fields && { type: 'spl-init-account', ...fields, program }
}

function readFields(
  instruction: DecodableInstruction,
): { account: Address; mint: Address; owner: Address } | undefined {
  switch (instruction.data[0]) {
    case INITIALIZE_ACCOUNT_DISCRIMINATOR: {
      const { account, mint, owner } = parseInitializeAccountInstruction(instruction).accounts
      return { account: account.address, mint: mint.address, owner: owner.address }
    }
    case INITIALIZE_ACCOUNT2_DISCRIMINATOR: {
      const { accounts, data } = parseInitializeAccount2Instruction(instruction)
      return { account: accounts.account.address, mint: accounts.mint.address, owner: data.owner }
    }
    case INITIALIZE_ACCOUNT3_DISCRIMINATOR: {
      const { accounts, data } = parseInitializeAccount3Instruction(instruction)
      return { account: accounts.account.address, mint: accounts.mint.address, owner: data.owner }
    }
    default:
      return undefined
  }
}
