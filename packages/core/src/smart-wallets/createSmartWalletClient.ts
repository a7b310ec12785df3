import { createSmartAccountClient, type SmartAccountClient } from 'permissionless'
import { type Chain, type Client, http, type Transport } from 'viem'
import type { PaymasterActions, SmartAccount } from 'viem/account-abstraction'

/** Where sponsorship comes from: ERC-7677 paymaster actions (a service client, or our verifying paymaster). */
export type SmartWalletPaymaster = Pick<PaymasterActions, 'getPaymasterData'> &
  Partial<Pick<PaymasterActions, 'getPaymasterStubData'>>

export interface CreateSmartWalletClientParameters {
  account: SmartAccount
  chain: Chain
  /** The ERC-4337 bundler's JSON-RPC url. */
  bundlerUrl: string
  /** A public client on `chain`, for fee estimation. */
  client: Client<Transport, Chain | undefined>
  /** Sponsors gas when set; otherwise the account pays from its own balance. */
  paymaster?: SmartWalletPaymaster
  /** How often to ask the bundler for a user operation's receipt (ms); viem's default follows the chain's block time. */
  pollingInterval?: number
}

export type SmartWalletClient = SmartAccountClient<Transport, Chain, SmartAccount>

/**
 * A client that turns transactions and batches into user operations for one
 * smart account and submits them to a bundler (permissionless's smart account
 * client: `sendTransaction`, `sendCalls`, `signMessage`, `signTypedData`).
 *
 * @example
 * const client = createSmartWalletClient({ account, chain, bundlerUrl, client: publicClient })
 * await client.sendTransaction({ to, value: 1n })
 */
export function createSmartWalletClient({
  account,
  chain,
  bundlerUrl,
  client,
  paymaster,
  pollingInterval,
}: CreateSmartWalletClientParameters): SmartWalletClient {
  return createSmartAccountClient({
    account,
    chain,
    client,
    bundlerTransport: http(bundlerUrl),
    paymaster,
    pollingInterval,
  }) as SmartWalletClient
}
