import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import {
  runSolanaTransaction,
  type SolanaTransactionParameters,
} from '../hooks/solana-transactions.ts'

export interface SendTransactionReturnType {
  /** The transaction's signature, base58 (its id on the explorer). */
  signature: string
  /** The fee the cluster charged, in lamports. */
  fees: bigint
  /** The signed wire transaction, as sent. */
  signedTransaction: Uint8Array
}

export interface UseSendTransactionReturnType {
  sendTransaction(parameters: SolanaTransactionParameters): Promise<SendTransactionReturnType>
}

/**
 * Sends a Solana transaction from the user's embedded Solana wallet after
 * they approve it on the confirm screen (spec 03 "Solana transaction
 * confirm": Amount, Swap, To, Network, Estimated fee, 'Advanced'), and
 * resolves once the cluster confirmed it. A transaction that fails on chain
 * shows the error screen (the log line about insufficient lamports when
 * there is one) and 'Retry transaction' signs it again on a fresh
 * blockhash. With `uiOptions.showWalletUIs: false` it is sent at once, and a
 * wallet that cannot pay rejects with INSUFFICIENT_BALANCE ('Solana wallet
 * has insufficient funds for this transaction.') before anything is signed.
 *
 * @example
 * const { sendTransaction } = useSendTransaction()
 * const { signature, fees } = await sendTransaction({ transaction: wireBytes, cluster: 'devnet' })
 */
export function useSendTransaction(): UseSendTransactionReturnType {
  const instance = useLatchkeyInstance()
  const sendTransaction = useCallback(
    async (parameters: SolanaTransactionParameters) => {
      const result = await runSolanaTransaction(instance, parameters, 'send')
      return {
        signature: result.signature as string,
        fees: result.fees ?? 0n,
        signedTransaction: result.signedTransaction,
      }
    },
    [instance],
  )
  return { sendTransaction }
}
