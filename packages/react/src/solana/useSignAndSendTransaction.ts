import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import {
  runSolanaTransaction,
  type SolanaTransactionParameters,
} from '../hooks/solana-transactions.ts'
import { firstSignature } from './first-signature.ts'

export interface SignAndSendTransactionReturnType {
  /** The transaction's signature (the fee payer's): 64 bytes. */
  signature: Uint8Array
}

export interface UseSignAndSendTransactionReturnType {
  signAndSendTransaction(
    parameters: SolanaTransactionParameters,
  ): Promise<SignAndSendTransactionReturnType>
}

/**
 * Signs a Solana transaction with the user's embedded Solana wallet after
 * they approve it on the confirm screen (spec 03 "Solana transaction
 * confirm"), sends it to the cluster and resolves once it is confirmed, with
 * its signature as bytes (the Wallet Standard `signAndSendTransaction`
 * shape; `useSendTransaction` gives it in base58 with the fees). `cluster`
 * names one of the app's `solanaClusters` (default: the first). Closing the
 * screen before it is sent rejects with a `ProviderRpcError` 4001.
 *
 * @example
 * const { signAndSendTransaction } = useSignAndSendTransaction()
 * const { signature } = await signAndSendTransaction({
 *   transaction: new Uint8Array(getTransactionEncoder().encode(compileTransaction(message))),
 * })
 */
export function useSignAndSendTransaction(): UseSignAndSendTransactionReturnType {
  const instance = useLatchkeyInstance()
  const signAndSendTransaction = useCallback(
    async (parameters: SolanaTransactionParameters) => {
      const { signedTransaction } = await runSolanaTransaction(instance, parameters, 'send')
      return { signature: firstSignature(signedTransaction) }
    },
    [instance],
  )
  return { signAndSendTransaction }
}
