import {
  type Address,
  BaseError,
  type Chain,
  decodeErrorResult,
  Eip1559FeesNotSupportedError,
  type Hex,
  HttpRequestError,
  InsufficientFundsError,
  InvalidParamsRpcError,
  isHex,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  TimeoutError,
} from 'viem'
import {
  estimateFeesPerGas,
  estimateGas,
  getBalance,
  getGasPrice,
  getTransactionCount,
} from 'viem/actions'
import { LatchkeyError } from '../../errors.ts'
import type { ChainClient } from './chain-client.ts'
import type { EthereumTransactionInput, PreparedEthereumTransaction } from './types.ts'

export interface PrepareEthereumTransactionParameters {
  client: ChainClient
  /** The chain the transaction is for; `input.chainId`, when set, must match it. */
  chain: Chain
  from: Address
  input: EthereumTransactionInput
}
export type PrepareEthereumTransactionReturnType = PreparedEthereumTransaction

/** A plain send's gas (the intrinsic cost of a transaction without data). */
const TRANSFER_GAS = 21_000n

/**
 * Fills in what a transaction request left out and says whether the wallet
 * can pay for it (spec 03 §4 "Ethereum transaction": prepare, then the funds
 * check). The nonce is the pending count; gas is estimated from `from`;
 * fees are EIP-1559 (`estimateFeesPerGas`) unless the request gave only a
 * `gasPrice` (kept legacy) or the chain has no base fee.
 *
 * Missing funds do not fail: `hasFunds` is false and the screen offers
 * 'Add funds on {chain} to complete transaction.'. A node that refuses to
 * estimate for lack of funds is asked again with the balance overridden, so
 * a call that would revert is still caught; a plain send falls back to
 * 21 000 gas when the node takes no overrides.
 *
 * Throws LatchkeyError:
 * - TRANSACTION_PREPARE_FAILED when estimating says the call would revert
 *   ('There was an error preparing your transaction. Your transaction request
 *   will likely fail.'), `details: { reason, message }`;
 * - INSUFFICIENT_BALANCE when a contract call's value cannot be paid and the
 *   node cannot estimate without the funds;
 * - TRANSACTION_PREPARE_ERROR when the node is unreachable or answers oddly;
 * - UNSUPPORTED_CHAIN when `input.chainId` is not `chain.id`.
 *
 * @example
 * const prepared = await prepareEthereumTransaction({ client, chain: base, from, input })
 * if (!prepared.hasFunds) showAddFunds(prepared.request.value + prepared.estimatedFee)
 */
export async function prepareEthereumTransaction({
  client,
  chain,
  from,
  input,
}: PrepareEthereumTransactionParameters): Promise<PrepareEthereumTransactionReturnType> {
  if (input.chainId !== undefined && input.chainId !== chain.id)
    throw new LatchkeyError(
      'UNSUPPORTED_CHAIN',
      `Chain ID ${input.chainId} is not supported by this app.`,
      { details: { id: input.chainId, expected: chain.id } },
    )
  const to = input.to ?? null
  const value = input.value ?? 0n
  const [nonce, balance, fees, gas] = await Promise.all([
    input.nonce ?? getTransactionCount(client, { address: from, blockTag: 'pending' }),
    getBalance(client, { address: from }),
    fillFees(client, chain, input),
    input.gas ?? estimate(client, { from, to, data: input.data, value }),
  ]).catch((error: unknown) => {
    if (error instanceof LatchkeyError) throw error
    throw new LatchkeyError('TRANSACTION_PREPARE_ERROR', undefined, {
      cause: error,
      details: { message: messageOf(error) },
    })
  })

  const estimatedFee = gas * (fees.maxFeePerGas ?? fees.gasPrice)
  return {
    chain,
    from,
    request: {
      chainId: chain.id,
      to,
      ...(input.data === undefined ? {} : { data: input.data }),
      value,
      nonce,
      gas,
      ...fees,
    },
    estimatedFee,
    balance,
    hasFunds: balance >= value + estimatedFee,
  }
}

type Fees =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint; gasPrice?: undefined }
  | { type: 'legacy'; gasPrice: bigint; maxFeePerGas?: undefined }

async function fillFees(
  client: ChainClient,
  chain: Chain,
  { gasPrice, maxFeePerGas, maxPriorityFeePerGas }: EthereumTransactionInput,
): Promise<Fees> {
  const wants1559 = maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined
  if (gasPrice !== undefined && !wants1559) return { type: 'legacy', gasPrice }
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined)
    return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
  let estimated: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  try {
    estimated = await estimateFeesPerGas(client, { chain })
  } catch (error) {
    // A chain without a base fee: legacy, unless the request insisted on EIP-1559.
    if (
      !wants1559 &&
      error instanceof BaseError &&
      error.walk((e) => e instanceof Eip1559FeesNotSupportedError)
    )
      return { type: 'legacy', gasPrice: await getGasPrice(client) }
    throw error
  }
  if (maxFeePerGas !== undefined) {
    const priority = estimated.maxPriorityFeePerGas
    return {
      type: 'eip1559',
      maxFeePerGas,
      maxPriorityFeePerGas: priority < maxFeePerGas ? priority : maxFeePerGas,
    }
  }
  const priority = maxPriorityFeePerGas ?? estimated.maxPriorityFeePerGas
  // Keep the estimate's headroom over the base fee, on top of the asked tip.
  const headroom = estimated.maxFeePerGas - estimated.maxPriorityFeePerGas
  return {
    type: 'eip1559',
    maxFeePerGas: (headroom > 0n ? headroom : 0n) + priority,
    maxPriorityFeePerGas: priority,
  }
}

async function estimate(
  client: ChainClient,
  call: { from: Address; to: Address | null; data?: Hex; value: bigint },
): Promise<bigint> {
  const parameters = {
    account: call.from,
    to: call.to ?? undefined,
    data: call.data,
    value: call.value,
    prepare: false,
  } as const
  try {
    return await estimateGas(client, parameters)
  } catch (error) {
    if (!walks(error, InsufficientFundsError)) throw prepareFailed(error)
  }
  // Some nodes refuse to estimate a value the sender cannot pay: ask as if it could.
  try {
    return await estimateGas(client, {
      ...parameters,
      stateOverride: [{ address: call.from, balance: call.value + 10n ** 24n }],
    })
  } catch (error) {
    // Still refused, or the node takes no state override (an extra parameter).
    const noOverrides =
      walks(error, InsufficientFundsError) ||
      walks(error, InvalidParamsRpcError) ||
      walks(error, MethodNotSupportedRpcError) ||
      walks(error, MethodNotFoundRpcError)
    if (!noOverrides) throw prepareFailed(error)
    if (call.data === undefined) return TRANSFER_GAS
    throw new LatchkeyError('INSUFFICIENT_BALANCE', undefined, {
      cause: error,
      details: { message: messageOf(error) },
    })
  }
}

/** Estimation failed: the call would revert, unless the node could not be reached at all. */
function prepareFailed(error: unknown): LatchkeyError {
  const unreachable = walks(error, HttpRequestError) || walks(error, TimeoutError)
  return new LatchkeyError(
    unreachable ? 'TRANSACTION_PREPARE_ERROR' : 'TRANSACTION_PREPARE_FAILED',
    undefined,
    { cause: error, details: { reason: revertReason(error), message: messageOf(error) } },
  )
}

/** The revert's `Error(string)` reason (or panic), from the data the node sent back. */
function revertReason(error: unknown): string | undefined {
  let data: Hex | undefined
  if (error instanceof BaseError)
    error.walk((e) => {
      const candidate = (e as { data?: unknown }).data
      if (typeof candidate === 'string' && isHex(candidate) && candidate.length >= 10)
        data = candidate as Hex
      return false
    })
  if (!data) return undefined
  try {
    const decoded = decodeErrorResult({ data })
    return decoded.args?.length ? String(decoded.args[0]) : decoded.errorName
  } catch {
    return undefined
  }
}

function walks(error: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  return error instanceof BaseError && Boolean(error.walk((e) => e instanceof type))
}

/** The node's own words when viem kept them (`details`), else viem's summary. */
function messageOf(error: unknown): string {
  if (error instanceof BaseError) return error.details || error.shortMessage
  return error instanceof Error ? error.message : String(error)
}
