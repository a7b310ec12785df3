import { createSmartAccountClient } from 'permissionless'
import {
  type Address,
  type Chain,
  type Client,
  type Hex,
  http,
  type SignedAuthorization,
  type Transport,
} from 'viem'
import type { PaymasterActions, SmartAccount, UserOperationReceipt } from 'viem/account-abstraction'

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

/**
 * What the SDK uses of permissionless's smart account client. Written out:
 * `SmartAccountClient<Transport, Chain, SmartAccount>` costs the type checker
 * about 150 s (its actions instantiated for every account implementation).
 */
export interface SmartWalletClient {
  account: SmartAccount
  sendUserOperation(parameters: {
    calls: ReadonlyArray<{ to: Address; value?: bigint; data?: Hex }>
    /** EIP-7702: the signed authorization that upgrades the account's EOA in this operation. */
    authorization?: SignedAuthorization
  }): Promise<Hex>
  waitForUserOperationReceipt(parameters: { hash: Hex }): Promise<UserOperationReceipt>
  sendTransaction(parameters: { to: Address; value?: bigint; data?: Hex }): Promise<Hex>
  signMessage(parameters: { message: string | { raw: Hex | Uint8Array } }): Promise<Hex>
}

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
  const options = {
    account,
    chain,
    client,
    bundlerTransport: http(bundlerUrl),
    paymaster,
    pollingInterval,
  }
  return createSmartAccountClient(options as never) as unknown as SmartWalletClient
}
