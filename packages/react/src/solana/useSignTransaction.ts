import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import {
  runSolanaTransaction,
  type SolanaTransactionParameters,
} from '../hooks/solana-transactions.ts'

export interface SignTransactionReturnType {
  /** The wire transaction with the wallet's signature in its slot, ready to send. */
  signedTransaction: Uint8Array
}

export interface UseSignTransactionReturnType {
  signTransaction(parameters: SolanaTransactionParameters): Promise<SignTransactionReturnType>
}

/**
 * Signs a Solana transaction with the user's embedded Solana wallet after
 * they approve it on the confirm screen, without sending it: the receipt
 * says 'Transaction signed!'. The cluster is still read, for the fee, the
 * balance and the lookup tables the screen shows.
 *
 * @example
 * const { signTransaction } = useSignTransaction()
 * const { signedTransaction } = await signTransaction({ transaction: wireBytes })
 */
export function useSignTransaction(): UseSignTransactionReturnType {
  const instance = useLatchkeyInstance()
  const signTransaction = useCallback(
    async (parameters: SolanaTransactionParameters) => {
      const { signedTransaction } = await runSolanaTransaction(instance, parameters, 'sign')
      return { signedTransaction }
    },
    [instance],
  )
  return { signTransaction }
}
