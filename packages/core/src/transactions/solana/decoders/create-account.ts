import { containsBytes } from '@solana/kit'
import {
  getCreateAccountDiscriminatorBytes,
  parseCreateAccountInstruction,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type CreateAccountInstruction = SolanaInstructionOf<'create-account'>

/**
 * Reads a System program `CreateAccount` (u32 tag 0): `from` funds
 * `newAccount` with `lamports`, allocates `space` bytes and assigns it to the
 * `owner` program. Any other instruction, or a malformed one, gives
 * `undefined`.
 *
 * @example
 * decodeCreateAccount(instruction)
 * // { type: 'create-account', from: '9xQe…', newAccount: '4Nd1…', lamports: 2_039_280n,
 * //   space: 165n, owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }
 */
export function decodeCreateAccount(
  instruction: DecodableInstruction,
): CreateAccountInstruction | undefined {
  if (instruction.programAddress !== SYSTEM_PROGRAM_ADDRESS) return undefined
  if (!containsBytes(instruction.data, getCreateAccountDiscriminatorBytes(), 0)) return undefined
  const parsed = tryParse(() => parseCreateAccountInstruction(instruction))
  if (!parsed) return undefined
  const { accounts, data } = parsed
  return {
    type: 'create-account',
    from: accounts.payer.address,
    newAccount: accounts.newAccount.address,
    lamports: data.lamports,
    space: data.space,
    owner: data.programAddress,
  }
}
