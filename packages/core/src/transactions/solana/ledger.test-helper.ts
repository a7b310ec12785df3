import {
  type Address,
  type AddressesByLookupTableAddress,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createNoopSigner,
  createTransactionMessage,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  type KeyPairSigner,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import type { SolanaClient } from './rpc.ts'

/**
 * Builds transactions the way an app hands them to Latchkey: unsigned wire
 * bytes (legacy or v0) on the ledger's current blockhash.
 */
export async function unsignedWire(
  rpc: SolanaClient,
  feePayer: Address,
  instructions: Instruction[],
  {
    version = 0,
    lookupTables,
  }: { version?: 'legacy' | 0; lookupTables?: AddressesByLookupTableAddress } = {},
): Promise<Uint8Array> {
  const { value: lifetime } = await rpc.getLatestBlockhash().send()
  // Typed as v0 so the lookup-table compression type-checks; the bytes carry `version`.
  const message = pipe(
    createTransactionMessage({ version: version as 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  )
  const compressed =
    version === 0 && lookupTables
      ? compressTransactionMessageUsingAddressLookupTables(message, lookupTables)
      : message
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(compressed)))
}

/** A System transfer whose source signs later (the enclave's part). */
export const transferSol = (from: Address, to: Address, lamports: bigint) =>
  getTransferSolInstruction({ source: createNoopSigner(from), destination: to, amount: lamports })

/** Signs wire bytes with a kit key pair: the test's stand-in for the enclave. */
export const signWith =
  (...signers: KeyPairSigner[]) =>
  async (wire: Uint8Array): Promise<Uint8Array> => {
    const transaction = getTransactionDecoder().decode(wire)
    const signed = await partiallySignTransaction(
      signers.map((s) => s.keyPair),
      transaction,
    )
    return new Uint8Array(getTransactionEncoder().encode(signed))
  }
