import { CLOSE_ACCOUNT_DISCRIMINATOR, parseCloseAccountInstruction } from '@solana-program/token'
import { isTokenProgram } from './token-program.ts'
import { tryParse } from './try-parse.ts'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type SplCloseAccountInstruction = SolanaInstructionOf<'spl-close-account'>

/**
 * Reads an SPL Token or Token-2022 `CloseAccount` (tag 9): the token account
 * is closed and its lamports (all of them, for wrapped SOL) go to
 * `destination`, authorised by `owner`. Any other instruction, or a
 * malformed one, gives `undefined`.
 *
 * @example
 * decodeSplCloseAccount(instruction)
 * // { type: 'spl-close-account', account: '3yFw…', destination: '9xQe…', owner: '9xQe…',
 * //   program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }
 */
export function decodeSplCloseAccount(
  instruction: DecodableInstruction,
): SplCloseAccountInstruction | undefined {
  if (!isTokenProgram(instruction.programAddress)) return undefined
  if (instruction.data[0] !== CLOSE_ACCOUNT_DISCRIMINATOR) return undefined
  const accounts = tryParse(() => parseCloseAccountInstruction(instruction).accounts)
  if (!accounts) return undefined
  return {
    type: 'spl-close-account',
    account: accounts.account.address,
    destination: accounts.destination.address,
    owner: accounts.owner.address,
    program: instruction.programAddress,
  }
}
