import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import { useCallback } from 'react'
import type { Hex, TransactionReceipt } from 'viem'
import { useLatchkeyInstance } from '../context.ts'
import type { TransactionUiOptions } from '../transaction-requests.ts'
import { runEthereumTransaction } from './ethereum-transactions.ts'

export interface SendTransactionOptions {
  /** Wording overrides, 'Not now', or no screen at all (`showWalletUIs: false`). */
  uiOptions?: TransactionUiOptions
  /** Which embedded wallet sends. Default: the user's first Ethereum wallet. */
  address?: string
}

export interface SendTransactionReturnType {
  /** The (last) transaction's hash. */
  hash: Hex
  receipt: TransactionReceipt
  /** Every step's hash and receipt, for a multi-step request. */
  steps: Array<{ hash: Hex; receipt: TransactionReceipt }>
}

export interface UseSendTransactionReturnType {
  sendTransaction(
    request: EthereumTransactionInput | EthereumTransactionInput[],
    options?: SendTransactionOptions,
  ): Promise<SendTransactionReturnType>
}

/**
 * Sends a transaction (or several, one confirm step each) from the user's
 * embedded Ethereum wallet after they approve it on the confirm screen
 * (spec 03 "Ethereum transaction confirm"), and resolves once it is mined.
 * `chainId` picks one of the app's `chains` (default `defaultChain`); another
 * chain is refused before anything is signed. Closing the screen before a
 * hash rejects with a `ProviderRpcError` 4001; a reverted transaction with
 * TRANSACTION_REVERTED, after the screen showed 'Transaction failed'.
 *
 * @example
 * const { sendTransaction } = useSendTransaction()
 * const { hash } = await sendTransaction({ to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: parseEther('0.01') })
 */
export function useSendTransaction(): UseSendTransactionReturnType {
  const instance = useLatchkeyInstance()
  const sendTransaction = useCallback(
    async (
      request: EthereumTransactionInput | EthereumTransactionInput[],
      options: SendTransactionOptions = {},
    ) => {
      const steps = await runEthereumTransaction(instance, request, options, 'send')
      const sent = steps.map((step) => ({
        hash: step.hash as Hex,
        receipt: step.receipt as TransactionReceipt,
      }))
      const last = sent[sent.length - 1] as SendTransactionReturnType['steps'][number]
      return { ...last, steps: sent }
    },
    [instance],
  )
  return { sendTransaction }
}
