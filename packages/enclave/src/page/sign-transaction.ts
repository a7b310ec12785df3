import type { EthereumTransactionWire } from '@latchkey/protocol/schemas'
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { type Hex, serializeTransaction, type TransactionSerializable } from 'viem'
import { PageError } from './errors.ts'

const quantity = (hex: string | undefined) => (hex === undefined ? undefined : BigInt(hex))

/** The wire request as viem serializes it (no signature yet). */
function toSerializable(tx: EthereumTransactionWire): TransactionSerializable {
  const common = {
    chainId: tx.chainId,
    to: (tx.to ?? undefined) as Hex | undefined,
    data: tx.data as Hex | undefined,
    value: BigInt(tx.value),
    nonce: tx.nonce,
    gas: BigInt(tx.gas),
  }
  return tx.type === 'eip1559'
    ? {
        ...common,
        type: 'eip1559',
        maxFeePerGas: quantity(tx.maxFeePerGas),
        maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas),
      }
    : { ...common, type: 'legacy', gasPrice: quantity(tx.gasPrice) }
}

/**
 * `eth_signTransaction`: keccak256 of the unsigned serialization (EIP-2718
 * typed for eip1559, EIP-155 for legacy), signed with low-s RFC 6979; answers
 * the signed serialization, ready for `eth_sendRawTransaction`.
 */
export function signEthereumTransaction(tx: EthereumTransactionWire, privateKey: Uint8Array): Hex {
  const unsigned = toSerializable(tx)
  const digest = keccak_256(hexToBytes(serializeTransaction(unsigned).slice(2)))
  const sig = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' })
  const recovery = sig[0] as number
  const r = `0x${bytesToHex(sig.subarray(1, 33))}` as Hex
  const s = `0x${bytesToHex(sig.subarray(33, 65))}` as Hex
  const signature =
    unsigned.type === 'legacy'
      ? { r, s, v: BigInt(tx.chainId) * 2n + 35n + BigInt(recovery) }
      : { r, s, yParity: recovery }
  return serializeTransaction(unsigned, signature)
}

/** Reads Solana's compact-u16 at `offset`: [value, bytes read]. */
function readCompactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]
    if (byte === undefined) throw new PageError('INVALID_PAYLOAD', 'The transaction is truncated')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  throw new PageError('INVALID_PAYLOAD', 'The transaction is malformed')
}

/**
 * Solana `signTransaction`: finds this wallet among the message's required
 * signers (legacy or v0), signs the message bytes (ed25519) and puts the
 * signature in the wallet's slot; other signers' slots are kept as they are.
 * A transaction this wallet is not a signer of is refused: the enclave never
 * signs bytes it cannot read as a transaction for this key.
 */
export function signSolanaTransaction(
  wire: Uint8Array,
  seed: Uint8Array,
  publicKey: Uint8Array,
): Uint8Array {
  const [slots, slotsLength] = readCompactU16(wire, 0)
  const messageStart = slotsLength + 64 * slots
  if (slots === 0 || wire.length <= messageStart)
    throw new PageError('INVALID_PAYLOAD', 'The transaction is malformed')
  const message = wire.subarray(messageStart)
  const prefix = message[0] as number
  const versioned = (prefix & 0x80) !== 0
  if (versioned && (prefix & 0x7f) !== 0)
    throw new PageError('INVALID_PAYLOAD', 'Only legacy and v0 transactions are supported')
  const header = versioned ? 1 : 0
  const required = message[header] as number
  if (required !== slots)
    throw new PageError('INVALID_PAYLOAD', 'The signature slots do not match the message')
  const [keyCount, keyCountLength] = readCompactU16(message, header + 3)
  const keysStart = header + 3 + keyCountLength
  if (keyCount < required || message.length < keysStart + 32 * keyCount)
    throw new PageError('INVALID_PAYLOAD', 'The transaction is malformed')
  let index = -1
  for (let i = 0; i < required; i++) {
    const key = message.subarray(keysStart + 32 * i, keysStart + 32 * (i + 1))
    if (key.every((byte, j) => byte === publicKey[j])) index = i
  }
  if (index < 0)
    throw new PageError('INVALID_PAYLOAD', 'This wallet is not a signer of the transaction')
  const signed = wire.slice()
  signed.set(ed25519.sign(message, seed), slotsLength + 64 * index)
  return signed
}
