import {
  type AccountMeta,
  AccountRole,
  type Address,
  type AddressesByLookupTableAddress,
  type CompiledTransactionMessage,
  getBase16Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit'
import { SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system'
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { LatchkeyError } from '../../errors.ts'
import { decodeAtaCreation } from './decoders/ata-creation.ts'
import { decodeCreateAccount } from './decoders/create-account.ts'
import { decodeJupiterSwap } from './decoders/jupiter-swap.ts'
import { decodeRaydiumSwap, RAYDIUM_AMM_V4_PROGRAM_ADDRESS } from './decoders/raydium-swap.ts'
import { decodeSolTransfer } from './decoders/sol-transfer.ts'
import { decodeSplCloseAccount } from './decoders/spl-close-account.ts'
import { decodeSplInitAccount } from './decoders/spl-init-account.ts'
import { decodeSplSyncNative } from './decoders/spl-sync-native.ts'
import { decodeSplTransfer } from './decoders/spl-transfer.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from './decoders/token-program.ts'
import type { DecodableInstruction, SolanaInstructionDecoder } from './decoders/types.ts'
import type { SolanaInstruction } from './types.ts'

export interface DecodeSolanaTransactionOptions {
  /**
   * The addresses held by the lookup tables a v0 message uses, as kit's
   * `fetchAddressesForLookupTables` returns them. Accounts the message loads
   * from a table missing here get a placeholder address (see below).
   */
  addressesByLookupTableAddress?: AddressesByLookupTableAddress
}

export interface DecodedSolanaTransaction {
  version: 'legacy' | 0
  /** The first static account: the wallet paying the fee. */
  feePayer: string
  /** One entry per instruction, in order (spec 03 §3 "Solana instruction types"). */
  instructions: SolanaInstruction[]
}

const DECODERS: readonly SolanaInstructionDecoder[] = [
  decodeSolTransfer,
  decodeCreateAccount,
  decodeSplTransfer,
  decodeSplInitAccount,
  decodeSplCloseAccount,
  decodeSplSyncNative,
  decodeAtaCreation,
  decodeRaydiumSwap,
  decodeJupiterSwap,
]

// Programs whose instructions open with a short tag rather than an Anchor
// 8-byte discriminator: an unknown instruction of theirs is named by its first
// byte (System's tag is a u32 LE, whose first byte is the instruction index).
const TAGGED_PROGRAMS = new Set<string>([
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  'ComputeBudget111111111111111111111111111111',
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
])

/**
 * Decodes a wire transaction (legacy or v0, signed or not) into its fee payer
 * and its instructions as spec 03 §3 "Solana instruction types" lists them, so
 * the confirm screen can say what a transaction does before the wallet signs.
 *
 * Unknown instructions are not rejected. The spec says an instruction outside
 * the set "is rejected as unsupported"; Latchkey instead returns it as
 * `{ type: 'unknown', program, discriminator }` and the confirm screen lists it
 * under 'Advanced', because real transactions routinely carry instructions
 * outside the set (Compute Budget, Memo, other DEXes) and refusing them would
 * make the wallet unusable with most apps. `discriminator` is hex: the first
 * byte for programs with one-byte tags (System, Token, Token-2022, Associated
 * Token, Compute Budget, Raydium AMM v4), else the first 8 bytes (the Anchor
 * discriminator) when the data has that many, else the first byte; empty for
 * empty data. An instruction of a known type that is malformed (too few
 * accounts, truncated data) is also returned as unknown.
 *
 * Address lookup tables: a v0 message names some accounts by (table, index)
 * only, and reading a table needs RPC. Pass their contents in
 * `addressesByLookupTableAddress`; an account from a table not given there (or
 * an index past its end) is returned as the placeholder
 * `lookup:<table address>#<index>`, which is never a valid base58 address.
 * Program ids and signers (so the fee payer and SOL senders) are always static
 * accounts, never looked up.
 *
 * @throws LatchkeyError `INVALID_TRANSACTION_REQUEST` when the bytes are not a
 * legacy or v0 transaction, or an instruction names an account index the
 * message does not have.
 *
 * @example
 * const { feePayer, instructions } = decodeSolanaTransaction(wireBytes)
 * for (const instruction of instructions) {
 *   if (instruction.type === 'sol-transfer') console.log(instruction.to, instruction.lamports)
 * }
 */
export function decodeSolanaTransaction(
  wire: Uint8Array,
  options: DecodeSolanaTransactionOptions = {},
): DecodedSolanaTransaction {
  const message = decodeMessage(wire)
  if (message.version !== 'legacy' && message.version !== 0) {
    throw invalid(`Unsupported Solana transaction version ${message.version}`)
  }
  const metas = [
    ...staticAccountMetas(message),
    ...lookupAccountMetas(message, options.addressesByLookupTableAddress ?? {}),
  ]
  const account = (index: number): AccountMeta => {
    const meta = metas[index]
    if (!meta) throw invalid(`Instruction names account ${index}, not in the message`)
    return meta
  }
  const instructions = message.instructions.map((compiled) =>
    decodeInstruction({
      programAddress: account(compiled.programAddressIndex).address,
      accounts: (compiled.accountIndices ?? []).map(account),
      data: compiled.data ?? new Uint8Array(),
    }),
  )
  const feePayer = message.staticAccounts[0]
  if (!feePayer) throw invalid('The message has no fee payer')
  return { version: message.version, feePayer, instructions }
}

function decodeMessage(wire: Uint8Array): CompiledTransactionMessage {
  try {
    const { messageBytes } = getTransactionDecoder().decode(wire)
    return getCompiledTransactionMessageDecoder().decode(messageBytes)
  } catch (cause) {
    throw invalid('Not a Solana wire transaction', cause)
  }
}

function invalid(message: string, cause?: unknown): LatchkeyError {
  return new LatchkeyError('INVALID_TRANSACTION_REQUEST', message, { cause })
}

function decodeInstruction(instruction: DecodableInstruction): SolanaInstruction {
  for (const decode of DECODERS) {
    const decoded = decode(instruction)
    if (decoded) return decoded
  }
  const { programAddress: program, data } = instruction
  const width = !TAGGED_PROGRAMS.has(program) && data.length >= 8 ? 8 : 1
  return {
    type: 'unknown',
    program,
    discriminator: getBase16Decoder().decode(data.slice(0, width)),
  }
}

// Static accounts are ordered writable signers, read-only signers, writable
// non-signers, read-only non-signers; the header gives the counts.
function staticAccountMetas(
  message: Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }>,
): AccountMeta[] {
  const { header, staticAccounts } = message
  const signers = header.numSignerAccounts
  const writableSigners = signers - header.numReadonlySignerAccounts
  const writable = staticAccounts.length - header.numReadonlyNonSignerAccounts
  return staticAccounts.map((address, index) => {
    const role =
      index < signers
        ? index < writableSigners
          ? AccountRole.WRITABLE_SIGNER
          : AccountRole.READONLY_SIGNER
        : index < writable
          ? AccountRole.WRITABLE
          : AccountRole.READONLY
    return { address, role }
  })
}

// Looked-up accounts follow the static ones: every table's writable indexes
// first, then every table's read-only indexes, each in table order.
function lookupAccountMetas(
  message: Extract<CompiledTransactionMessage, { version: 'legacy' | 0 }>,
  tables: AddressesByLookupTableAddress,
): AccountMeta[] {
  if (message.version === 'legacy') return []
  const lookups = message.addressTableLookups ?? []
  const resolve = (table: Address, index: number, role: AccountRole): AccountMeta => ({
    address: tables[table]?.[index] ?? (`lookup:${table}#${index}` as Address),
    role,
  })
  return [
    ...lookups.flatMap((lookup) =>
      lookup.writableIndexes.map((i) =>
        resolve(lookup.lookupTableAddress, i, AccountRole.WRITABLE),
      ),
    ),
    ...lookups.flatMap((lookup) =>
      lookup.readonlyIndexes.map((i) =>
        resolve(lookup.lookupTableAddress, i, AccountRole.READONLY),
      ),
    ),
  ]
}
