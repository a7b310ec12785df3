import type { SmartWalletType } from '@latchkey/protocol'
import {
  type Address,
  decodeFunctionData,
  type Hex,
  hexToBigInt,
  parseAbi,
  size,
  slice,
} from 'viem'

/*
 * What a user operation calls, read from its callData for the account types
 * Latchkey creates (docs/smart-wallets.md "Policy"): the sponsorship policy's
 * `contracts` list is checked against these targets. Anything this cannot
 * read (another selector, a delegatecall other than Safe's MultiSend, a
 * malformed batch) is null, and a contracts policy refuses it.
 */

/** eth-infinitism SimpleAccount v0.7. */
const SIMPLE_ACCOUNT_ABI = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
])

/** eth-infinitism Simple7702Account (BaseAccount v0.8). */
const SIMPLE_7702_ACCOUNT_ABI = parseAbi([
  'function execute(address target, uint256 value, bytes data)',
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
])

/** Safe4337Module v0.3.0 (Safe 1.4.1): `operation` 0 is a call, 1 a delegatecall. */
const SAFE_4337_MODULE_ABI = parseAbi([
  'function executeUserOp(address to, uint256 value, bytes data, uint8 operation)',
  'function executeUserOpWithErrorString(address to, uint256 value, bytes data, uint8 operation)',
])

const MULTI_SEND_ABI = parseAbi(['function multiSend(bytes transactions)'])

/**
 * Safe 1.4.1's MultiSend and MultiSendCallOnly (lowercase): the only
 * delegatecall targets read, as batches of calls.
 */
const SAFE_MULTI_SEND: readonly string[] = [
  '0x38869bf66a61cf6bdb996a6ae40d5853fd43b526',
  '0x9641d764fc13c8b624c04430c7356c1c7c8102e2',
]

const lower = (address: Address) => address.toLowerCase()

/**
 * MultiSend's packed transactions: per call `uint8 operation ‖ address to ‖
 * uint256 value ‖ uint256 length ‖ bytes data`. Null if any is a delegatecall
 * or the encoding is short or long.
 */
function multiSendTargets(transactions: Hex): string[] | null {
  const targets: string[] = []
  const total = size(transactions)
  let at = 0
  while (at < total) {
    if (total - at < 85) return null
    if (hexToBigInt(slice(transactions, at, at + 1)) !== 0n) return null
    targets.push(slice(transactions, at + 1, at + 21).toLowerCase())
    const length = hexToBigInt(slice(transactions, at + 53, at + 85))
    if (length > BigInt(total - at - 85)) return null
    at += 85 + Number(length)
  }
  return targets
}

function safeTargets(callData: Hex): string[] | null {
  const { args } = decodeFunctionData({ abi: SAFE_4337_MODULE_ABI, data: callData })
  const [to, , data, operation] = args
  if (operation === 0) return [lower(to)]
  if (operation !== 1 || !SAFE_MULTI_SEND.includes(lower(to))) return null
  const multiSend = decodeFunctionData({ abi: MULTI_SEND_ABI, data })
  return multiSendTargets(multiSend.args[0])
}

function simpleTargets(callData: Hex): string[] | null {
  const decoded = decodeFunctionData({ abi: SIMPLE_ACCOUNT_ABI, data: callData })
  if (decoded.functionName === 'execute') return [lower(decoded.args[0])]
  const [dest, value, func] = decoded.args
  // SimpleAccount reverts unless the lists agree (value may be empty: no value).
  if (func.length !== dest.length || (value.length !== 0 && value.length !== dest.length))
    return null
  return dest.map(lower)
}

function simple7702Targets(callData: Hex): string[] | null {
  const decoded = decodeFunctionData({ abi: SIMPLE_7702_ACCOUNT_ABI, data: callData })
  if (decoded.functionName === 'execute') return [lower(decoded.args[0])]
  return decoded.args[0].map((call) => lower(call.target))
}

const DECODERS: Record<SmartWalletType, (callData: Hex) => string[] | null> = {
  simple: simpleTargets,
  safe: safeTargets,
  simple_7702: simple7702Targets,
}

/**
 * The addresses a user operation's calls go to (lowercase, in order), read
 * as the account of `type` executes them; null when they cannot be read.
 * An empty callData makes no call (an operation that only deploys).
 *
 * @example
 * callTargets('simple', encodeFunctionData({ abi, functionName: 'execute', args: [token, 0n, transfer] }))
 * // ['0x…token']
 */
export function callTargets(type: SmartWalletType, callData: Hex): string[] | null {
  if (callData === '0x') return []
  try {
    return DECODERS[type](callData)
  } catch {
    return null
  }
}
