import { type Address, address } from '@solana/kit'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'

/**
 * The Token-2022 program. `@solana-program/token` covers the original Token
 * program only; the instructions decoded here (Transfer, TransferChecked,
 * InitializeAccount 1/2/3, CloseAccount, SyncNative) have the same tags and
 * layouts in Token-2022, so its parsers read both.
 */
export const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')

/**
 * Whether `program` is the SPL Token or Token-2022 program.
 *
 * @example
 * isTokenProgram(instruction.programAddress) // true for Tokenkeg… and Tokenz…
 */
export function isTokenProgram(program: Address): boolean {
  return program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS
}
