// `@latchkey/core/solana`: Solana transactions (decode, prepare, send) on
// `@solana/kit`, apart from the main entry so apps that never send on Solana
// do not load it.
export {
  type BuildSolanaFundingTransferParameters,
  type BuildSolanaInstructionsTransactionParameters,
  buildSolanaFundingTransfer,
  buildSolanaInstructionsTransaction,
  type SolanaFundingToken,
  type SolanaFundingTransaction,
  solanaSignatureOf,
} from '../../funding/solana-transfer.ts'
export {
  type DecodedSolanaTransaction,
  type DecodeSolanaTransactionOptions,
  decodeSolanaTransaction,
} from './decode.ts'
export { SOLANA_FALLBACK_ERROR_MESSAGE, solanaErrorMessage } from './error-message.ts'
export {
  type PrepareSolanaTransactionParameters,
  prepareSolanaTransaction,
  refreshBlockhash,
} from './prepare.ts'
export { createSolanaClient, type SolanaClient } from './rpc.ts'
export {
  type SendSolanaTransactionParameters,
  type SolanaTransactionErrorDetails,
  sendSolanaTransaction,
} from './send.ts'
export type {
  PreparedSolanaTransaction,
  SolanaInstruction,
  SolanaSendResult,
} from './types.ts'
