import { type EmbeddedWalletAccount, LatchkeyError } from '@latchkey/core'
import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import type { Address, Chain, Hex, TransactionReceipt } from 'viem'
import { recoveryHandlers, requestSignature } from '../hooks/signing.ts'
import type { LatchkeyInstance, SignMessageUiOptions } from '../store.ts'
import type { TransactionUiOptions } from '../transaction-requests.ts'
import type { TypedData } from '../wallet-requests.ts'
import { type SmartWalletEthereumProvider, smartWalletEthereumProvider } from './eip1193.ts'
import {
  requestSmartWalletTransaction,
  smartWalletTransactionRequest,
} from './smart-wallet-request.ts'
import type { SmartWalletHandle } from './types.ts'

/** A smart wallet's transaction: a call, with the chain it is meant for (default the client's). */
export type SmartWalletTransaction = Pick<EthereumTransactionInput, 'to' | 'value' | 'data'> & {
  chainId?: number
  /** viem's style: the chain object instead of its id. */
  chain?: Pick<Chain, 'id'>
}

export interface SmartWalletTransactionOptions {
  /** Wording overrides, 'Not now', or no screen at all (`showWalletUIs: false`). */
  uiOptions?: TransactionUiOptions
}

export interface SmartWalletSignOptions {
  /** Overrides of the sign screen's wording, 'Not now', or no screen at all. */
  uiOptions?: SignMessageUiOptions
}

/** One user operation sent and included. */
export interface SmartWalletCallsResult {
  userOperationHash: Hex
  /** The bundle transaction that carried the operation. */
  transactionHash: Hex
  receipt: TransactionReceipt
}

/**
 * The user's smart wallet on one chain, as `useSmartWallets()` hands it out:
 * viem's wallet-client verbs, each through the confirm or sign screen.
 */
export interface SmartWalletClient {
  account: { address: Address }
  chain: Chain
  /** Spec 01 `smart_wallet_type`: 'safe', 'simple' or 'simple_7702'. */
  type: SmartWalletHandle['type']
  /** The app pays the gas on this chain. */
  sponsored: boolean
  /** One call as one user operation; resolves with the transaction hash once included. */
  sendTransaction(tx: SmartWalletTransaction, options?: SmartWalletTransactionOptions): Promise<Hex>
  /** 1 to n calls, confirmed one by one ('(n / m)'), sent as ONE user operation (atomic, in order). */
  sendCalls(
    calls: SmartWalletTransaction[],
    options?: SmartWalletTransactionOptions,
  ): Promise<SmartWalletCallsResult>
  /** EIP-191 by the smart account: ERC-1271, or ERC-6492 before it is deployed. */
  signMessage(parameters: { message: string }, options?: SmartWalletSignOptions): Promise<Hex>
  /** EIP-712 by the smart account: ERC-1271, or ERC-6492 before it is deployed. */
  signTypedData(typedData: TypedData, options?: SmartWalletSignOptions): Promise<Hex>
  /** Makes another of the app's smart-wallet chains the current one (every `useSmartWallets()` follows). */
  switchChain(parameters: { id: number }): Promise<void>
  /** EIP-1193 provider (with EIP-5792 `wallet_sendCalls`) for wagmi and viem; one per client. */
  getEthereumProvider(): SmartWalletEthereumProvider
}

export interface SmartWalletClientParameters {
  /** The embedded wallet that owns the smart account (its key signs in the enclave). */
  owner: EmbeddedWalletAccount
  wallet: SmartWalletHandle
  /** From the app's smart-wallet config for this chain: the screen says 'Sponsored'. */
  sponsored: boolean
  switchChain(id: number): Promise<void>
}

/**
 * The hook's client over core's smart wallet: transactions open the
 * Ethereum confirm screen (with 'Sponsored' when the app pays), signatures
 * the sign-message screen, as the embedded wallet's own do; the work is
 * core's. A call for another chain is refused before anything is shown.
 */
export function smartWalletClient(
  instance: LatchkeyInstance,
  { owner, wallet, sponsored, switchChain }: SmartWalletClientParameters,
): SmartWalletClient {
  const inputs = (calls: SmartWalletTransaction[]): EthereumTransactionInput[] => {
    if (calls.length === 0) throw new LatchkeyError('INVALID_TRANSACTION_REQUEST')
    return calls.map(({ to, value, data, chainId, chain }) => {
      const id = chainId ?? chain?.id ?? wallet.chain.id
      if (id !== wallet.chain.id)
        throw new LatchkeyError(
          'UNSUPPORTED_CHAIN',
          `This smart wallet client is on chain ${wallet.chain.id}, not ${id}; use switchChain or getClientForChain`,
          { details: { id } },
        )
      return { chainId: id, to, ...(value !== undefined && { value }), ...(data && { data }) }
    })
  }
  const sendCalls = async (
    calls: SmartWalletTransaction[],
    options: SmartWalletTransactionOptions = {},
  ): Promise<SmartWalletCallsResult> => {
    const request = smartWalletTransactionRequest(instance, owner, wallet, {
      sponsored,
      // An EIP-7702 wallet is "deployed" once its code delegates: until then, the screen says so.
      upgrades: wallet.type === 'simple_7702' && !(await wallet.isDeployed()),
      requests: inputs(calls),
      uiOptions: options.uiOptions ?? {},
    })
    const result = await requestSmartWalletTransaction(instance, request)
    return {
      userOperationHash: result.userOperationHash as Hex,
      transactionHash: result.hash as Hex,
      receipt: result.receipt as TransactionReceipt,
    }
  }
  const signed = (
    payload:
      | { method: 'personal_sign'; data: string; sign: () => Promise<Hex> }
      | { method: 'eth_signTypedData_v4'; data: TypedData; sign: () => Promise<Hex> },
    options: SmartWalletSignOptions,
  ) =>
    requestSignature(instance, {
      screen: 'sign-message',
      address: wallet.address,
      ...recoveryHandlers(instance, owner),
      uiOptions: options.uiOptions ?? {},
      ...payload,
    })

  let provider: SmartWalletEthereumProvider | undefined
  const client: SmartWalletClient = {
    account: { address: wallet.address },
    chain: wallet.chain,
    type: wallet.type,
    sponsored,
    async sendTransaction(tx, options) {
      return (await sendCalls([tx], options)).transactionHash
    },
    sendCalls,
    signMessage({ message }, options = {}) {
      if (typeof message !== 'string' || message.length === 0)
        return Promise.reject(new LatchkeyError('EMPTY_MESSAGE'))
      return signed(
        { method: 'personal_sign', data: message, sign: () => wallet.signMessage(message) },
        options,
      )
    },
    signTypedData(typedData, options = {}) {
      if (!typedData || typeof typedData !== 'object' || !typedData.primaryType)
        return Promise.reject(new LatchkeyError('EMPTY_MESSAGE'))
      return signed(
        {
          method: 'eth_signTypedData_v4',
          data: typedData,
          sign: () => wallet.signTypedData(typedData),
        },
        options,
      )
    },
    switchChain: ({ id }) => switchChain(id),
    getEthereumProvider: () => {
      provider ??= smartWalletEthereumProvider(instance, { owner, client })
      return provider
    },
  }
  return client
}
