import type { RpcEthereumTransaction, RpcQuantity } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import {
  bytesToHex,
  createPublicClient,
  type Hex,
  http,
  type TransactionSerializable,
  type TypedDataDefinition,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ApiError } from '../errors.ts'

/*
 * The signatures of delegated actions (docs/delegated-actions.md), with a key
 * rebuilt for this one request (delegation/service.ts; the caller wipes it).
 * Ethereum with viem's local account, Solana with ed25519 over the message.
 */

export const quantity = (value: RpcQuantity | undefined): bigint | undefined =>
  value === undefined ? undefined : BigInt(value)

/** The chain id of an `eip155:<id>` CAIP-2. */
export const chainIdOf = (caip2: string): number => Number(caip2.slice('eip155:'.length))

const accountOf = (privateKey: Uint8Array) => privateKeyToAccount(bytesToHex(privateKey))

export function signPersonalMessage(
  privateKey: Uint8Array,
  params: { message: string; encoding?: 'utf-8' | 'hex' | undefined },
): Promise<Hex> {
  if (params.encoding === 'hex') {
    if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(params.message))
      throw new ApiError('INVALID_PAYLOAD', 'The message is not 0x-hex bytes.')
    return accountOf(privateKey).signMessage({ message: { raw: params.message as Hex } })
  }
  return accountOf(privateKey).signMessage({ message: params.message })
}

export async function signTypedData(
  privateKey: Uint8Array,
  typedData: {
    domain: Record<string, unknown>
    types: Record<string, { name: string; type: string }[]>
    primary_type: string
    message: Record<string, unknown>
  },
): Promise<Hex> {
  const { EIP712Domain: _domainType, ...types } = typedData.types
  try {
    return await accountOf(privateKey).signTypedData({
      domain: typedData.domain,
      types,
      primaryType: typedData.primary_type,
      message: typedData.message,
    } as unknown as TypedDataDefinition)
  } catch (cause) {
    throw new ApiError(
      'INVALID_PAYLOAD',
      `The typed data is not valid: ${cause instanceof Error ? cause.message.split('\n')[0] : ''}`,
    )
  }
}

/**
 * The transaction with every field set: what the request gives, the rest
 * (nonce, gas, fees) read from the chain's RPC (`LATCHKEY_RPC_URLS`). Without
 * an RPC for the chain, the request must give them all.
 */
export async function completeTransaction(
  from: Hex,
  chainId: number,
  tx: RpcEthereumTransaction,
  rpcUrl: string | undefined,
): Promise<TransactionSerializable> {
  if (tx.chain_id !== undefined && Number(quantity(tx.chain_id)) !== chainId)
    throw new ApiError('INVALID_PAYLOAD', 'The transaction chain_id is not the caip2 chain.')
  const value = quantity(tx.value) ?? 0n
  const data = tx.data as Hex | undefined
  const to = tx.to as Hex
  const legacy = tx.type === 0 || (tx.gas_price !== undefined && tx.max_fee_per_gas === undefined)
  const givenNonce = quantity(tx.nonce)
  if (givenNonce !== undefined && givenNonce > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ApiError('INVALID_PAYLOAD', 'The transaction nonce is too large.')
  let nonce = givenNonce === undefined ? undefined : Number(givenNonce)
  let gas = quantity(tx.gas_limit)
  let gasPrice = quantity(tx.gas_price)
  let maxFeePerGas = quantity(tx.max_fee_per_gas)
  let maxPriorityFeePerGas = quantity(tx.max_priority_fee_per_gas)
  const missing =
    nonce === undefined ||
    gas === undefined ||
    (legacy
      ? gasPrice === undefined
      : maxFeePerGas === undefined || maxPriorityFeePerGas === undefined)
  if (missing) {
    if (!rpcUrl)
      throw new ApiError(
        'UNSUPPORTED_CHAIN',
        `The server has no RPC for chain ${chainId}: give nonce, gas_limit and fees, or set LATCHKEY_RPC_URLS.`,
      )
    const client = createPublicClient({ transport: http(rpcUrl) })
    try {
      nonce ??= await client.getTransactionCount({ address: from, blockTag: 'pending' })
      gas ??= await client.estimateGas({ account: from, to, value, ...(data ? { data } : {}) })
      if (legacy) gasPrice ??= await client.getGasPrice()
      else {
        const fees = await client.estimateFeesPerGas()
        maxFeePerGas ??= fees.maxFeePerGas
        maxPriorityFeePerGas ??= fees.maxPriorityFeePerGas
      }
    } catch (cause) {
      throw new ApiError(
        'TRANSACTION_PREPARE_FAILED',
        `The chain refused to prepare the transaction: ${cause instanceof Error ? cause.message.split('\n')[0] : ''}`,
      )
    }
  }
  const base = { chainId, to, value, nonce, gas, ...(data ? { data } : {}) }
  return legacy
    ? { ...base, type: 'legacy', gasPrice }
    : { ...base, type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
}

export async function signEthereumTransaction(
  privateKey: Uint8Array,
  tx: TransactionSerializable,
): Promise<Hex> {
  try {
    return await accountOf(privateKey).signTransaction(tx)
  } catch (cause) {
    throw new ApiError(
      'INVALID_PAYLOAD',
      `The transaction cannot be signed: ${cause instanceof Error ? cause.message.split('\n')[0] : ''}`,
    )
  }
}

/** Broadcasts a signed transaction; its hash. */
export async function broadcast(rpcUrl: string, signed: Hex): Promise<Hex> {
  const client = createPublicClient({ transport: http(rpcUrl) })
  try {
    return await client.sendRawTransaction({ serializedTransaction: signed })
  } catch (cause) {
    throw new ApiError(
      'TRANSACTION_FAILURE',
      `The chain refused the transaction: ${cause instanceof Error ? cause.message.split('\n')[0] : ''}`,
    )
  }
}

/** Solana `signMessage`: ed25519 over the message bytes. */
export function signSolanaMessage(seed: Uint8Array, message: Uint8Array): Uint8Array {
  return ed25519.sign(message, seed)
}

/** Reads Solana's compact-u16 at `offset`: [value, bytes read]. */
function readCompactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]
    if (byte === undefined) throw new ApiError('INVALID_PAYLOAD', 'The transaction is truncated.')
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) return [value, i + 1]
  }
  throw new ApiError('INVALID_PAYLOAD', 'The transaction is malformed.')
}

/**
 * Solana `signTransaction`, as the enclave does it (enclave
 * page/sign-transaction.ts): finds the wallet among the message's required
 * signers (legacy or v0), signs the message bytes and puts the signature in
 * the wallet's slot. A transaction the wallet does not sign is refused.
 */
export function signSolanaTransaction(
  wire: Uint8Array,
  seed: Uint8Array,
  publicKey: Uint8Array,
): Uint8Array {
  const bad = (message: string) => new ApiError('INVALID_PAYLOAD', message)
  const [slots, slotsLength] = readCompactU16(wire, 0)
  const messageStart = slotsLength + 64 * slots
  if (slots === 0 || wire.length <= messageStart) throw bad('The transaction is malformed.')
  const message = wire.subarray(messageStart)
  const prefix = message[0] as number
  const versioned = (prefix & 0x80) !== 0
  if (versioned && (prefix & 0x7f) !== 0)
    throw bad('Only legacy and v0 transactions are supported.')
  const header = versioned ? 1 : 0
  const required = message[header] as number
  if (required !== slots) throw bad('The signature slots do not match the message.')
  const [keyCount, keyCountLength] = readCompactU16(message, header + 3)
  const keysStart = header + 3 + keyCountLength
  if (keyCount < required || message.length < keysStart + 32 * keyCount)
    throw bad('The transaction is malformed.')
  let index = -1
  for (let i = 0; i < required; i++) {
    const key = message.subarray(keysStart + 32 * i, keysStart + 32 * (i + 1))
    if (key.every((byte, j) => byte === publicKey[j])) index = i
  }
  if (index < 0) throw bad('This wallet is not a signer of the transaction.')
  const signed = wire.slice()
  signed.set(ed25519.sign(message, seed), slotsLength + 64 * index)
  return signed
}
