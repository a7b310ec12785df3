import {
  type Address,
  type Chain,
  getAddress,
  type Hex,
  type LocalAccount,
  type SignedAuthorization,
  type TransactionReceipt,
  type Transport,
  type TypedDataDefinition,
} from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  type SmartAccount,
  type UserOperation,
  type UserOperationReceipt,
} from 'viem/account-abstraction'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { chainClient } from '../transactions/ethereum/chain-client.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { toEmbeddedOwner } from './embeddedOwner.ts'
import { smartWalletRpcTransport } from './embeddedTransport.ts'
import type { SmartWalletCall } from './sendSmartWalletCalls.ts'
import { signSmartWalletAuthorization } from './signSmartWalletAuthorization.ts'
import { type SmartWalletType, toSmartWalletAccount } from './toSmartWalletAccount.ts'

export interface EmbeddedSmartWalletParameters {
  /** The user's embedded Ethereum wallet: the smart wallet's owner (signs in the enclave). */
  wallet: EmbeddedWalletAccount
  /** One of the chains of the app's `smart_wallet_config`. */
  chain: Chain
  /**
   * The bundler and paymaster JSON-RPC. Default: the app's Latchkey server
   * (`routes.smartWalletRpc(chain.id)`, as the logged-in user). Tests may
   * point it at a bundler directly.
   */
  transport?: Transport
  /** How often to ask for a user operation's receipt (ms); default: the chain's block time. */
  pollingInterval?: number
}

/** A user operation estimated for the confirm screen. */
export interface PreparedSmartWalletCalls {
  userOperation: UserOperation
  /**
   * The most the operation can cost in wei: the EntryPoint's prefund, every
   * gas limit (paymaster's included) times `maxFeePerGas`. The app pays it
   * when `sponsored`.
   */
  maxCost: bigint
  sponsored: boolean
}

export interface SentSmartWalletCalls {
  userOperationHash: Hex
  transactionHash: Hex
  /** The bundle transaction's receipt. */
  receipt: TransactionReceipt
  /** False when the calls reverted inside the operation (it was still included, and paid for). */
  success: boolean
}

/** The user's smart wallet on one chain, owned by the embedded wallet. */
export interface EmbeddedSmartWallet {
  address: Address
  type: SmartWalletType
  version: string
  chain: Chain
  /** The app pays the gas on this chain (the confirm screen says 'Sponsored'). */
  sponsored: boolean
  /** The viem smart account (what the `smart_wallet` link signs with). */
  account: SmartAccount
  /** Its owner: the embedded wallet, signing in the enclave. */
  owner: LocalAccount
  /** Whether the account has code yet (for `simple_7702`: whether the EOA is upgraded). */
  isDeployed(): Promise<boolean>
  /** Estimates one user operation for the calls (gas and, when sponsored, the paymaster stub): the confirm screen's fee. */
  prepareCalls(calls: readonly SmartWalletCall[]): Promise<PreparedSmartWalletCalls>
  /** One user operation for 1..n calls, atomic and in order: signed in the enclave, sent, and waited for. */
  sendCalls(calls: readonly SmartWalletCall[]): Promise<SentSmartWalletCalls>
  /** ERC-1271 (deployed) or ERC-6492 (not yet) signature of the smart wallet; `simple` has none. */
  signMessage(message: string | { raw: Hex }): Promise<Hex>
  signTypedData(typedData: TypedDataDefinition): Promise<Hex>
}

/** What this module uses of viem's bundler client (its full type costs the type checker dearly). */
interface Bundler {
  prepareUserOperation(parameters: { calls: readonly SmartWalletCall[] }): Promise<UserOperation>
  sendUserOperation(parameters: {
    calls: readonly SmartWalletCall[]
    authorization?: SignedAuthorization
  }): Promise<Hex>
  waitForUserOperationReceipt(parameters: { hash: Hex }): Promise<UserOperationReceipt>
}

/** EntryPoint v0.7/v0.8 `_getRequiredPrefund`: every gas limit times maxFeePerGas. */
export function userOperationMaxCost(op: UserOperation): bigint {
  const gas =
    op.callGasLimit +
    op.verificationGasLimit +
    op.preVerificationGas +
    (op.paymasterVerificationGasLimit ?? 0n) +
    (op.paymasterPostOpGasLimit ?? 0n)
  return gas * op.maxFeePerGas
}

const normalize = (calls: readonly SmartWalletCall[]) => {
  if (calls.length === 0) throw new LatchkeyError('INVALID_PAYLOAD', 'No calls to send')
  return calls.map(({ to, value = 0n, data = '0x' }) => ({ to, value, data }))
}

/**
 * The smart wallet of the app's type (`smart_wallet_config`) that the user's
 * embedded wallet owns on `chain`, at its counterfactual address. Nothing is
 * linked here: `createEmbeddedSmartWallet` links it.
 *
 * @example
 * const smartWallet = await toEmbeddedSmartWallet(client, { wallet, chain: base })
 * await smartWallet.sendCalls([{ to, value: 1n }])
 */
export async function toEmbeddedSmartWallet(
  client: LatchkeyClient,
  { wallet, chain, transport, pollingInterval }: EmbeddedSmartWalletParameters,
): Promise<EmbeddedSmartWallet> {
  const config = (await client.getAppConfig()).smart_wallet_config
  const onChain = config?.chains.find((c) => c.chain_id === chain.id)
  if (!config || !onChain)
    throw new LatchkeyError(
      'UNSUPPORTED_CHAIN',
      `Chain ID ${chain.id} has no smart wallets in this app.`,
      { details: { id: chain.id } },
    )
  const owner = toEmbeddedOwner(client, { ...wallet, address: getAddress(wallet.address) })
  const publicClient = chainClient(chain)
  const { account, type, version } = await toSmartWalletAccount({
    client: publicClient,
    owner,
    type: config.type,
  })
  const rpc = transport ?? smartWalletRpcTransport(client, chain.id)
  const sponsored = onChain.sponsored
  const bundler = createBundlerClient({
    account,
    chain,
    client: publicClient,
    transport: rpc,
    // ERC-7677 pm_getPaymasterStubData / pm_getPaymasterData, on the same route.
    paymaster: sponsored ? createPaymasterClient({ transport: rpc }) : undefined,
    pollingInterval,
  }) as unknown as Bundler

  return {
    address: account.address,
    type,
    version,
    chain,
    sponsored,
    account,
    owner,
    isDeployed: () => account.isDeployed(),
    async prepareCalls(calls) {
      // A simple_7702 operation is estimated with viem's stub authorization until upgraded.
      const userOperation = await bundler.prepareUserOperation({ calls: normalize(calls) })
      return { userOperation, maxCost: userOperationMaxCost(userOperation), sponsored }
    },
    async sendCalls(calls) {
      const batch = normalize(calls)
      // EIP-7702: the first operation carries the EOA's authorization (signed in the enclave).
      const implementation = account.authorization?.address
      const authorization =
        implementation && !(await account.isDeployed())
          ? await signSmartWalletAuthorization({ client: publicClient, owner, implementation })
          : undefined
      const userOperationHash = await bundler.sendUserOperation({ calls: batch, authorization })
      const { receipt, success } = await bundler.waitForUserOperationReceipt({
        hash: userOperationHash,
      })
      return { userOperationHash, transactionHash: receipt.transactionHash, receipt, success }
    },
    signMessage: (message) => account.signMessage({ message }),
    signTypedData: (typedData) => account.signTypedData(typedData),
  }
}
