/**
 * Fixtures for the decoder tests: real wire transactions compiled with
 * `@solana/kit`, and kit's own decompiler to read their instructions back, so
 * each decoder is tested against bytes a wallet would actually receive.
 */
import {
  type Address,
  type AddressesByLookupTableAddress,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  decompileTransactionMessage,
  getAddressDecoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from '@solana/kit'
import type { DecodableInstruction } from './types.ts'

const LIFETIME = {
  blockhash: 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N' as Blockhash,
  lastValidBlockHeight: 300n,
}

/** A deterministic address whose 32 bytes are all `byte`. */
export function testAddress(byte: number): Address {
  return getAddressDecoder().decode(new Uint8Array(32).fill(byte))
}

export interface EncodeTransactionOptions {
  feePayer: Address
  version?: 'legacy' | 0
  /** v0 only: move the accounts these tables hold into address-table lookups. */
  lookupTables?: AddressesByLookupTableAddress
}

/**
 * Compiles `instructions` into the wire bytes of an unsigned transaction.
 *
 * @example
 * const wire = encodeTransaction([getTransferSolInstruction({ … })], { feePayer })
 */
export function encodeTransaction(
  instructions: readonly Instruction[],
  { feePayer, version = 'legacy', lookupTables }: EncodeTransactionOptions,
): Uint8Array {
  const encode = (transaction: Transaction) =>
    new Uint8Array(getTransactionEncoder().encode(transaction))
  if (version === 'legacy') {
    return encode(
      compileTransaction(
        pipe(
          createTransactionMessage({ version: 'legacy' }),
          (m) => setTransactionMessageFeePayer(feePayer, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(LIFETIME, m),
          (m) => appendTransactionMessageInstructions(instructions, m),
        ),
      ),
    )
  }
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(LIFETIME, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  return encode(
    compileTransaction(
      lookupTables
        ? compressTransactionMessageUsingAddressLookupTables(message, lookupTables)
        : message,
    ),
  )
}

/**
 * Encodes `instructions` into a legacy wire transaction and reads them back
 * with kit's decompiler, in the shape the decoders take.
 *
 * @example
 * const [instruction] = roundTrip([getTransferSolInstruction({ … })], payer)
 */
export function roundTrip(
  instructions: readonly Instruction[],
  feePayer: Address,
): DecodableInstruction[] {
  const wire = encodeTransaction(instructions, { feePayer })
  const { messageBytes } = getTransactionDecoder().decode(wire)
  const compiled = getCompiledTransactionMessageDecoder().decode(messageBytes)
  if (compiled.version !== 'legacy') throw new Error('expected a legacy message')
  return decompileTransactionMessage(compiled).instructions.map((instruction) => ({
    programAddress: instruction.programAddress,
    accounts: instruction.accounts ?? [],
    data: instruction.data ?? new Uint8Array(),
  }))
}

/**
 * `roundTrip` for a transaction of one instruction.
 *
 * @example
 * const instruction = roundTripOne(getTransferSolInstruction({ … }), payer)
 */
export function roundTripOne(instruction: Instruction, feePayer: Address): DecodableInstruction {
  const [decoded, ...rest] = roundTrip([instruction], feePayer)
  if (!decoded || rest.length > 0) throw new Error('expected exactly one instruction')
  return decoded
}
