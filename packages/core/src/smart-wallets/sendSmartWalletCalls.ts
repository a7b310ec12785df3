import type { Address, Hex } from 'viem'
import type { UserOperationReceipt } from 'viem/account-abstraction'
import type { SmartWalletClient } from './createSmartWalletClient.ts'

export interface SmartWalletCall {
  to: Address
  value?: bigint
  data?: Hex
}

export interface SendSmartWalletCallsParameters {
  /** Executed in order, atomically, in one user operation (EIP-5792 `wallet_sendCalls`). */
  calls: readonly SmartWalletCall[]
}

export interface SendSmartWalletCallsReturnType {
  userOperationHash: Hex
  receipt: UserOperationReceipt
}

/**
 * Sends one user operation carrying `calls` (a single transfer is a batch of
 * one) and waits until the bundler reports it included. The account is
 * deployed by this operation when it has no code yet.
 *
 * @example
 * const { receipt } = await sendSmartWalletCalls(client, { calls: [{ to, value: 1n }, { to: token, data }] })
 * receipt.success // false when the calls reverted inside the operation
 */
export async function sendSmartWalletCalls(
  client: SmartWalletClient,
  { calls }: SendSmartWalletCallsParameters,
): Promise<SendSmartWalletCallsReturnType> {
  if (calls.length === 0) throw new Error('sendSmartWalletCalls needs at least one call')
  const userOperationHash = await client.sendUserOperation({
    calls: calls.map(({ to, value = 0n, data = '0x' }) => ({ to, value, data })),
  })
  const receipt = await client.waitForUserOperationReceipt({ hash: userOperationHash })
  return { userOperationHash, receipt }
}
