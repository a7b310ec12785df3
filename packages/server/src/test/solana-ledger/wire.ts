import { base58, base64 } from '@scure/base'

/** One instruction as the message compiles it: indexes into the account keys. */
export interface CompiledInstruction {
  programIdIndex: number
  accounts: number[]
  data: Uint8Array
}

export interface AddressTableLookup {
  accountKey: string
  writableIndexes: number[]
  readonlyIndexes: number[]
}

export interface MessageHeader {
  numRequiredSignatures: number
  numReadonlySignedAccounts: number
  numReadonlyUnsignedAccounts: number
}

/** A legacy or v0 message, read from its wire bytes. */
export interface ParsedMessage {
  version: 'legacy' | 0
  header: MessageHeader
  accountKeys: string[]
  recentBlockhash: string
  /** Where the recent blockhash sits in the message bytes (to replace it). */
  blockhashOffset: number
  instructions: CompiledInstruction[]
  addressTableLookups: AddressTableLookup[]
}

export interface ParsedTransaction extends ParsedMessage {
  signatures: Uint8Array[]
  messageBytes: Uint8Array
}

/** Thrown for bytes that are not a transaction (the RPC answers -32602). */
export class WireError extends Error {}

class Reader {
  offset = 0
  constructor(private readonly bytes: Uint8Array) {}
  u8(): number {
    const byte = this.bytes[this.offset++]
    if (byte === undefined) throw new WireError('unexpected end of bytes')
    return byte
  }
  /** Solana's compact-u16 length prefix. */
  shortU16(): number {
    let value = 0
    for (let shift = 0; shift <= 14; shift += 7) {
      const byte = this.u8()
      value |= (byte & 0x7f) << shift
      if (!(byte & 0x80)) return value
    }
    throw new WireError('bad compact-u16')
  }
  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new WireError('unexpected end of bytes')
    const out = this.bytes.slice(this.offset, this.offset + length)
    this.offset += length
    return out
  }
  list<T>(read: () => T): T[] {
    return Array.from({ length: this.shortU16() }, read)
  }
  done(): boolean {
    return this.offset === this.bytes.length
  }
}

/** Reads a legacy or v0 message (the bytes the signatures sign). */
export function parseMessage(bytes: Uint8Array): ParsedMessage {
  const r = new Reader(bytes)
  let version: 'legacy' | 0 = 'legacy'
  if ((bytes[0] ?? 0) & 0x80) {
    const v = r.u8() & 0x7f
    if (v !== 0) throw new WireError(`unsupported transaction version ${v}`)
    version = 0
  }
  const header = {
    numRequiredSignatures: r.u8(),
    numReadonlySignedAccounts: r.u8(),
    numReadonlyUnsignedAccounts: r.u8(),
  }
  const accountKeys = r.list(() => base58.encode(r.take(32)))
  const blockhashOffset = r.offset
  const recentBlockhash = base58.encode(r.take(32))
  const instructions = r.list(() => ({
    programIdIndex: r.u8(),
    accounts: [...r.take(r.shortU16())],
    data: r.take(r.shortU16()),
  }))
  const addressTableLookups =
    version === 0
      ? r.list(() => ({
          accountKey: base58.encode(r.take(32)),
          writableIndexes: [...r.take(r.shortU16())],
          readonlyIndexes: [...r.take(r.shortU16())],
        }))
      : []
  if (!r.done()) throw new WireError('trailing bytes after the message')
  if (header.numRequiredSignatures < 1 || header.numRequiredSignatures > accountKeys.length) {
    throw new WireError('bad message header')
  }
  return {
    version,
    header,
    accountKeys,
    recentBlockhash,
    blockhashOffset,
    instructions,
    addressTableLookups,
  }
}

/** Reads a wire transaction: compact-array of signatures, then the message. */
export function parseTransaction(wire: Uint8Array): ParsedTransaction {
  const r = new Reader(wire)
  const signatures = r.list(() => r.take(64))
  const messageBytes = wire.slice(r.offset)
  const message = parseMessage(messageBytes)
  if (signatures.length !== message.header.numRequiredSignatures) {
    throw new WireError('signature count does not match the message header')
  }
  return { ...message, signatures, messageBytes }
}

/** The transaction with `blockhash` in place of its own (signatures then no longer match). */
export function withBlockhash(tx: ParsedTransaction, blockhash: string): ParsedTransaction {
  const messageBytes = tx.messageBytes.slice()
  messageBytes.set(base58.decode(blockhash), tx.blockhashOffset)
  return { ...tx, messageBytes, recentBlockhash: blockhash }
}

/** Decodes a `sendTransaction` / `simulateTransaction` payload (the RPC default is base58). */
export function decodeEncoded(encoded: unknown, encoding: unknown = 'base58'): Uint8Array {
  if (typeof encoded !== 'string') throw new WireError('expected an encoded transaction string')
  if (encoding === 'base64') return base64.decode(encoded)
  if (encoding === 'base58') return base58.decode(encoded)
  throw new WireError(`unsupported encoding: ${String(encoding)}`)
}

const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111'
/** Programs charged 3 000 compute units each when no limit is set (SIMD-0170). */
const BUILTINS = new Set([
  '11111111111111111111111111111111',
  COMPUTE_BUDGET,
  'AddressLookupTab1e1111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
])
export const LAMPORTS_PER_SIGNATURE = 5_000n

/**
 * The fee the runtime charges: 5 000 lamports a signature plus the priority
 * fee (compute-unit price × limit). Precompile signatures are not counted.
 */
export function messageFee(message: ParsedMessage): bigint {
  let price = 0n
  let limit: bigint | undefined
  let defaultLimit = 0n
  for (const ix of message.instructions) {
    const program = message.accountKeys[ix.programIdIndex]
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength)
    if (program === COMPUTE_BUDGET && ix.data[0] === 2 && ix.data.length >= 5) {
      limit = BigInt(view.getUint32(1, true))
    } else if (program === COMPUTE_BUDGET && ix.data[0] === 3 && ix.data.length >= 9) {
      price = view.getBigUint64(1, true)
    }
    defaultLimit += program && BUILTINS.has(program) ? 3_000n : 200_000n
  }
  const units = limit ?? (defaultLimit > 1_400_000n ? 1_400_000n : defaultLimit)
  const priority = (price * units + 999_999n) / 1_000_000n
  return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numRequiredSignatures) + priority
}

/** Whether account `index` of the static keys is writable, from the header. */
export function isWritable(message: ParsedMessage, index: number): boolean {
  const { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts } =
    message.header
  if (index < numRequiredSignatures)
    return index < numRequiredSignatures - numReadonlySignedAccounts
  return index < message.accountKeys.length - numReadonlyUnsignedAccounts
}
