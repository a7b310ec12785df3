import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import { useCallback } from 'react'
import type { Hex } from 'viem'
import { useLatchkeyInstance } from '../context.ts'
import { runEthereumTransaction } from './ethereum-transactions.ts'
import type { SendTransactionOptions } from './useSendTransaction.ts'

export type SignTransactionOptions = SendTransactionOptions

export interface SignTransactionReturnType {
  /** The signed transaction, serialized (EIP-2718), for `eth_sendRawTransaction`. */
  signature: Hex
}

export interface UseSignTransactionReturnType {
  signTransaction(
    request: EthereumTransactionInput,
    options?: SignTransactionOptions,
  ): Promise<SignTransactionReturnType>
}

/**
 * Signs a transaction with the user's embedded Ethereum wallet after they
 * approve it on the confirm screen, without sending it: the screen shows
 * 'Success' and closes 1.4 s later (spec 03 §4: "for sign-only wait 1.4 s").
 * Nonce, gas and fees are filled in first, so what is signed is complete.
 *
 * @example
 * const { signTransaction } = useSignTransaction()
 * const { signature } = await signTransaction({ to, value: 1n })
 */
export function useSignTransaction(): UseSignTransactionReturnType {
  const instance = useLatchkeyInstance()
  const signTransaction = useCallback(
    async (request: EthereumTransactionInput, options: SignTransactionOptions = {}) => {
      const [step] = await runEthereumTransaction(instance, request, options, 'sign')
      return { signature: step?.signedTransaction as Hex }
    },
    [instance],
  )
  return { signTransaction }
}
