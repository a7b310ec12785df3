/**
 * `@latchkey/react/solana`: Solana transactions from the user's embedded
 * Solana wallet, each through the confirm screen. An entry of its own, so
 * apps that never send on Solana do not load its code.
 *
 * @module
 * @example
 * import { useSendTransaction } from '@latchkey/react/solana'
 *
 * const { sendTransaction } = useSendTransaction()
 * const { signature } = await sendTransaction({ transaction: wireBytes, cluster: 'devnet' })
 */

export type { SolanaTransactionParameters } from './hooks/solana-transactions.ts'
export {
  type SendTransactionReturnType,
  type UseSendTransactionReturnType,
  useSendTransaction,
} from './solana/useSendTransaction.ts'
export {
  type SignAndSendTransactionReturnType,
  type UseSignAndSendTransactionReturnType,
  useSignAndSendTransaction,
} from './solana/useSignAndSendTransaction.ts'
export {
  type SignTransactionReturnType,
  type UseSignTransactionReturnType,
  useSignTransaction,
} from './solana/useSignTransaction.ts'
export type { SolanaCluster, TransactionUiOptions } from './transaction-requests.ts'
