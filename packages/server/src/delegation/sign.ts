import type { RpcEthereumTransaction, RpcQuantity } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import {
  bytesToHex,
  createPublicClient,
  type Hex,
  http,
  type TransactionSerializable,
  type TypedDataDefinition,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  type ParsedSolanaTransaction,
  parseSolanaTransaction,
  SolanaTransactionError,
} from '../auth/siws/transaction.ts'
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

/**
 * Solana `signTransaction`, as the enclave does it (enclave
 * page/sign-transaction.ts): reads the transaction (legacy or v0, with the
 * server's one wire reader, auth/siws/transaction.ts), finds the wallet among
 * its required signers, signs the message bytes and puts the signature in the
 * wallet's slot. A transaction the wallet does not sign is refused.
 */
export function signSolanaTransaction(
  wire: Uint8Array,
  seed: Uint8Array,
  publicKey: Uint8Array,
): Uint8Array {
  const parsed = readSolanaTransaction(wire)
  const index = parsed.signers.indexOf(base58.encode(publicKey))
  if (index < 0)
    throw new ApiError('INVALID_PAYLOAD', 'This wallet is not a signer of the transaction.')
  // The slots end where the message starts: 64 bytes per signer before it.
  const slotsStart = wire.length - parsed.message.length - 64 * parsed.signers.length
  const signed = wire.slice()
  signed.set(ed25519.sign(parsed.message, seed), slotsStart + 64 * index)
  return signed
}

/** A Solana wire transaction, read; INVALID_PAYLOAD when it is not one. */
export function readSolanaTransaction(wire: Uint8Array): ParsedSolanaTransaction {
  try {
    return parseSolanaTransaction(wire)
  } catch (cause) {
    if (cause instanceof SolanaTransactionError)
      throw new ApiError('INVALID_PAYLOAD', `The transaction is malformed: ${cause.message}.`)
    throw cause
  }
}

/** The programs a Solana transaction's instructions invoke (base58, each once). */
export const solanaProgramIds = (wire: Uint8Array): string[] => [
  ...new Set(readSolanaTransaction(wire).instructions.map((i) => i.programId)),
]
