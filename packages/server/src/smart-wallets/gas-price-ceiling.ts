import type { UserOperation } from 'viem/account-abstraction'
import { relayJsonRpc } from './relay.ts'
import { SmartWalletRpcError } from './rpc-errors.ts'

/*
 * A sponsored operation's gas price may not be far above the bundler's own
 * (docs/smart-wallets.md "Policy"). The VerifyingPaymaster signs the fees, and
 * the EntryPoint pays the bundler `gasUsed × min(maxFeePerGas, baseFee +
 * maxPriorityFeePerGas)` out of the deposit: a user who got a signature for a
 * huge priority fee could submit the operation through a bundler of their
 * own and take the deposit as its beneficiary. The ceiling is read from
 * the app's bundler (`pimlico_getUserOperationGasPrice`, Pimlico and Alto);
 * a bundler without that method leaves the fees to the gas-cost cap.
 */

/** How far above the bundler's 'fast' price a sponsored operation may bid. */
export const GAS_PRICE_CEILING_FACTOR = 2n

const quantity = (value: unknown): bigint | undefined => {
  try {
    return typeof value === 'string' ? BigInt(value) : undefined
  } catch {
    return undefined
  }
}

/**
 * Refuses (SPONSORSHIP_GAS_PRICE_TOO_HIGH) an operation whose
 * maxFeePerGas or maxPriorityFeePerGas is above GAS_PRICE_CEILING_FACTOR
 * times the bundler's 'fast' price. An unreachable bundler throws
 * BUNDLER_UNAVAILABLE: no price, no signature.
 */
export async function assertGasPriceUnderCeiling(
  bundlerUrl: string,
  userOperation: UserOperation,
): Promise<void> {
  const answer = await relayJsonRpc(
    bundlerUrl,
    'pimlico_getUserOperationGasPrice',
    [],
    'BUNDLER_UNAVAILABLE',
  )
  if ('error' in answer) return
  const fast = (answer.result as { fast?: Record<string, unknown> } | null)?.fast
  const maxFee = quantity(fast?.maxFeePerGas)
  const maxPriority = quantity(fast?.maxPriorityFeePerGas)
  if (maxFee === undefined || maxPriority === undefined)
    throw new SmartWalletRpcError('BUNDLER_UNAVAILABLE', 'The bundler gave no gas price.')
  if (
    userOperation.maxFeePerGas > maxFee * GAS_PRICE_CEILING_FACTOR ||
    userOperation.maxPriorityFeePerGas > maxPriority * GAS_PRICE_CEILING_FACTOR
  )
    throw new SmartWalletRpcError(
      'SPONSORSHIP_GAS_PRICE_TOO_HIGH',
      `The app sponsors fees up to ${GAS_PRICE_CEILING_FACTOR}× the bundler's fast price (${maxFee} wei per gas, priority ${maxPriority}).`,
      { rule: 'gas_price' },
    )
}
