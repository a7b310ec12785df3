import { getAddress, type Hex, isAddress, isHex } from 'viem'
import { LatchkeyError } from '../../errors.ts'
import type { EthereumTransactionInput } from './types.ts'

export type NormalizeEthereumRequestParameters = unknown
export type NormalizeEthereumRequestReturnType = EthereumTransactionInput

const HEX_QUANTITY = /^0x[0-9a-fA-F]*$/
const DECIMAL = /^[0-9]+$/

function invalid(field: string, value: unknown): LatchkeyError {
  return new LatchkeyError('INVALID_TRANSACTION_REQUEST', undefined, {
    details: { field, value: typeof value === 'bigint' ? value.toString() : value },
  })
}

/** A non-negative integer from a bigint, a safe integer, a hex quantity or a decimal string. */
function quantity(field: string, value: unknown): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string') {
    // '0x' is not a valid JSON-RPC quantity, but dapps send it for zero.
    if (HEX_QUANTITY.test(value)) return value === '0x' ? 0n : BigInt(value)
    if (DECIMAL.test(value)) return BigInt(value)
  }
  throw invalid(field, value)
}

function smallInteger(field: string, value: unknown): number {
  const n = quantity(field, value)
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(field, value)
  return Number(n)
}

/**
 * Turns what an EIP-1193 caller passed to `eth_sendTransaction` /
 * `eth_signTransaction` (hex quantities, decimal strings, numbers or bigints;
 * `input` for `data`, `gasLimit` for `gas`) into an
 * `EthereumTransactionInput`. Addresses must be valid (a mixed-case address
 * must carry a right EIP-55 checksum) and come back checksummed. `from` is
 * not part of the result: the caller checks it against the wallet. Anything
 * else throws LatchkeyError INVALID_TRANSACTION_REQUEST ('Invalid transaction
 * request', spec 03 §5) with the offending field in `details`.
 *
 * @example
 * const input = normalizeEthereumRequest({ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: '0xde0b6b3a7640000' })
 * // { to: '0x7099…79C8', value: 1000000000000000000n }
 */
export function normalizeEthereumRequest(
  raw: NormalizeEthereumRequestParameters,
): NormalizeEthereumRequestReturnType {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('request', raw)
  const request = raw as Record<string, unknown>
  const present = (key: string) => request[key] !== undefined && request[key] !== null
  const input: EthereumTransactionInput = {}

  if (present('chainId')) input.chainId = smallInteger('chainId', request.chainId)
  if (request.to === null) input.to = null
  else if (request.to !== undefined) {
    if (typeof request.to !== 'string' || !isAddress(request.to)) throw invalid('to', request.to)
    input.to = getAddress(request.to)
  }
  const data = present('data') ? request.data : request.input
  if (data !== undefined && data !== null) {
    if (typeof data !== 'string' || !isHex(data) || data.length % 2 !== 0)
      throw invalid('data', data)
    if (data !== '0x') input.data = data as Hex
  }
  if (present('value')) input.value = quantity('value', request.value)
  if (present('nonce')) input.nonce = smallInteger('nonce', request.nonce)
  const gas = present('gas') ? request.gas : request.gasLimit
  if (gas !== undefined && gas !== null) input.gas = quantity('gas', gas)
  if (present('maxFeePerGas')) input.maxFeePerGas = quantity('maxFeePerGas', request.maxFeePerGas)
  if (present('maxPriorityFeePerGas'))
    input.maxPriorityFeePerGas = quantity('maxPriorityFeePerGas', request.maxPriorityFeePerGas)
  if (present('gasPrice')) input.gasPrice = quantity('gasPrice', request.gasPrice)

  // As MetaMask does: a legacy gas price beside EIP-1559 fees is ambiguous.
  if (
    input.gasPrice !== undefined &&
    (input.maxFeePerGas !== undefined || input.maxPriorityFeePerGas !== undefined)
  )
    throw invalid('gasPrice', request.gasPrice)
  if (
    input.maxFeePerGas !== undefined &&
    input.maxPriorityFeePerGas !== undefined &&
    input.maxPriorityFeePerGas > input.maxFeePerGas
  )
    throw invalid('maxPriorityFeePerGas', request.maxPriorityFeePerGas)
  if (input.to === undefined && input.data === undefined) throw invalid('to', request.to)
  return input
}
