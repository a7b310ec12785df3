import type {
  AccountMeta,
  Instruction,
  InstructionWithAccounts,
  InstructionWithData,
  ReadonlyUint8Array,
} from '@solana/kit'
import type { SolanaInstruction } from '../types.ts'

/**
 * One instruction of a decoded transaction with its account indexes resolved
 * to addresses (kit's `Instruction` shape, `accounts` and `data` always
 * present, empty when the wire had none). Accounts loaded from an address
 * lookup table that could not be resolved carry a placeholder address
 * (`decodeSolanaTransaction` documents its format).
 */
export type DecodableInstruction = Instruction &
  InstructionWithAccounts<readonly AccountMeta[]> &
  InstructionWithData<ReadonlyUint8Array>

/** The member of the `SolanaInstruction` union with the given `type`. */
export type SolanaInstructionOf<TType extends SolanaInstruction['type']> = Extract<
  SolanaInstruction,
  { type: TType }
>

/**
 * A decoder reads one instruction. It answers `undefined` when the instruction
 * is not its kind (another program or another discriminator), and also when it
 * is its kind but malformed (too few accounts, truncated data: the program
 * would refuse it), so `decodeSolanaTransaction` shows it as 'unknown'. It
 * never throws.
 */
export type SolanaInstructionDecoder = (
  instruction: DecodableInstruction,
) => SolanaInstruction | undefined
