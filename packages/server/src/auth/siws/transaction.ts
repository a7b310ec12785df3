import { base58 } from '@scure/base'

/*
 * Just enough of Solana's transaction wire format to read a Ledger sign-in
 * (docs/login-wallets.md): Ledger signs transactions, not messages, so the
 * sign-in message travels as the data of a Memo instruction in a
 * transaction the wallet signs and nobody sends.
 *
 * transaction = compact-u16 n, n × 64-byte signatures, message
 * message     = [0x80 | version] (v0 only), header (3 bytes: required
 *               signatures, read-only signed, read-only unsigned),
 *               compact-u16 n, n × 32-byte account keys, 32-byte blockhash,
 *               compact-u16 n, n × instruction, (v0) address table lookups
 * instruction = u8 program index, compact-u16 n, n × u8 account index,
 *               compact-u16 n, n bytes of data
 */

/** Memo program v2 and v1: either may carry the sign-in text. */
export const MEMO_PROGRAM_IDS: readonly string[] = [
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]

/** A serialized transaction could not be read. */
export class SolanaTransactionError extends Error {
  override readonly name = 'SolanaTransactionError'
}

export interface SolanaInstruction {
  /** base58 program id (always a static account key). */
  programId: string
  data: Uint8Array
}

export interface ParsedSolanaTransaction {
  version: 'legacy' | 0
  /** The bytes every signature is over. */
  message: Uint8Array
  /** base58 keys that must sign, in signature order. */
  signers: string[]
  instructions: SolanaInstruction[]
}

class Reader {
  private offset = 0
  constructor(private readonly bytes: Uint8Array) {}

  get position(): number {
    return this.offset
  }

  get done(): boolean {
    return this.offset === this.bytes.length
  }

  take(length: number): Uint8Array {
    if (length < 0 || this.offset + length > this.bytes.length)
      throw new SolanaTransactionError('Transaction ends early')
    const out = this.bytes.subarray(this.offset, this.offset + length)
    this.offset += length
    return out
  }

  u8(): number {
    return this.take(1)[0] as number
  }

  /** Solana's shortvec: 7 bits per byte, at most 3 bytes, minimal. */
  compactU16(): number {
    let value = 0
    for (let i = 0; i < 3; i++) {
      const byte = this.u8()
      value |= (byte & 0x7f) << (7 * i)
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) throw new SolanaTransactionError('Non-minimal length')
        if (value > 0xffff) throw new SolanaTransactionError('Length out of range')
        return value
      }
    }
    throw new SolanaTransactionError('Length out of range')
  }
}

/**
 * Reads a serialized legacy or v0 transaction. Throws SolanaTransactionError
 * on anything malformed, trailing bytes included.
 *
 * @example
 * const tx = parseSolanaTransaction(base64.decode(body.message))
 */
export function parseSolanaTransaction(bytes: Uint8Array): ParsedSolanaTransaction {
  const reader = new Reader(bytes)
  const signatureCount = reader.compactU16()
  reader.take(64 * signatureCount)
  const messageStart = reader.position

  let version: 'legacy' | 0 = 'legacy'
  let requiredSignatures = reader.u8()
  if (requiredSignatures & 0x80) {
    if ((requiredSignatures & 0x7f) !== 0)
      throw new SolanaTransactionError('Unsupported transaction version')
    version = 0
    requiredSignatures = reader.u8()
  }
  reader.take(2) // read-only signed / unsigned counts
  const keyCount = reader.compactU16()
  const keys: string[] = []
  for (let i = 0; i < keyCount; i++) keys.push(base58.encode(reader.take(32)))
  if (requiredSignatures === 0 || requiredSignatures > keyCount)
    throw new SolanaTransactionError('Bad signer count')
  if (signatureCount !== requiredSignatures)
    throw new SolanaTransactionError('Signature count differs from the header')
  reader.take(32) // recent blockhash

  const instructions: SolanaInstruction[] = []
  const instructionCount = reader.compactU16()
  for (let i = 0; i < instructionCount; i++) {
    const programId = keys[reader.u8()]
    // v0 programs can not come from lookup tables: the index is a static key.
    if (programId === undefined) throw new SolanaTransactionError('Bad program index')
    reader.take(reader.compactU16()) // account indexes
    instructions.push({ programId, data: reader.take(reader.compactU16()) })
  }
  if (version === 0) {
    const lookups = reader.compactU16()
    for (let i = 0; i < lookups; i++) {
      reader.take(32)
      reader.take(reader.compactU16())
      reader.take(reader.compactU16())
    }
  }
  if (!reader.done) throw new SolanaTransactionError('Trailing bytes')
  return {
    version,
    message: bytes.subarray(messageStart),
    signers: keys.slice(0, requiredSignatures),
    instructions,
  }
}

/**
 * The UTF-8 text of the transaction's one Memo instruction. Throws
 * SolanaTransactionError when there is none, more than one, or the data is
 * not UTF-8.
 */
export function memoText(transaction: ParsedSolanaTransaction): string {
  const memos = transaction.instructions.filter((i) => MEMO_PROGRAM_IDS.includes(i.programId))
  const [memo] = memos
  if (memos.length !== 1 || !memo) throw new SolanaTransactionError('Expected one memo')
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(memo.data)
  } catch {
    throw new SolanaTransactionError('Memo is not UTF-8')
  }
}
