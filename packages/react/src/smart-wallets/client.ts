import { type EmbeddedWalletAccount, LatchkeyError } from '@latchkey/core'
import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import type { Hex, TransactionReceipt } from 'viem'
import { recoveryHandlers, requestSignature } from '../hooks/signing.ts'
import type { LatchkeyInstance } from '../store.ts'
import type { TypedData } from '../wallet-requests.ts'
import type {
  SmartWalletCallsResult,
  SmartWalletClient,
  SmartWalletEthereumProvider,
  SmartWalletSignOptions,
  SmartWalletTransaction,
  SmartWalletTransactionOptions,
} from './client-types.ts'
import { smartWalletEthereumProvider } from './eip1193.ts'
import {
  requestSmartWalletTransaction,
  smartWalletTransactionRequest,
} from './smart-wallet-request.ts'
import type { SmartWalletHandle } from './types.ts'

export type {
  SmartWalletCallsResult,
  SmartWalletClient,
  SmartWalletSignOptions,
  SmartWalletTransaction,
  SmartWalletTransactionOptions,
} from './client-types.ts'

export interface SmartWalletClientParameters {
  /** The embedded wallet that owns the smart account (its key signs in the enclave). */
  owner: EmbeddedWalletAccount
  wallet: SmartWalletHandle
  /** From the app's smart-wallet config for this chain: the screen says 'Sponsored'. */
  sponsored: boolean
  /** Makes chain `id` current for every hook (the registry's switch); answers its client. */
  switchChain(id: number): Promise<SmartWalletClient>
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
    switchChain: async ({ id }) => {
      await switchChain(id)
    },
    getEthereumProvider: () => {
      provider ??= smartWalletEthereumProvider(instance, { client, switchTo: switchChain })
      return provider
    },
  }
  return client
}
