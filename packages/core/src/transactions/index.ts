// `@latchkey/core/transactions`: Ethereum transactions (prepare, decode,
// simulate, send), the amount formatting the confirm screens use, and
// token prices.
// Solana's live in `@latchkey/core/solana`, so an app that sends only on
// Ethereum does not load Solana's libraries.
export {
  type SendEthereumTransactionParameters,
  sendEthereumTransaction,
  signEthereumTransactionRequest,
} from '../wallets/sendEthereumTransaction.ts'
export { type ChainClient, chainClient, findChain, nativeBalance } from './ethereum/chain-client.ts'
export { decodeEthereumTransaction, isUnlimitedApproval } from './ethereum/decode.ts'
export { normalizeEthereumRequest } from './ethereum/normalize.ts'
export {
  type PrepareEthereumTransactionParameters,
  prepareEthereumTransaction,
} from './ethereum/prepare.ts'
export {
  type EthereumTransactionToSign,
  type SendPreparedEthereumTransactionParameters,
  sendPreparedEthereumTransaction,
} from './ethereum/send.ts'
export {
  NO_TOKENS_FOUND,
  type SimulateEthereumTransactionParameters,
  simulateEthereumTransaction,
} from './ethereum/simulate.ts'
export { readTokenInfo } from './ethereum/token-info.ts'
export type {
  AssetDiff,
  DecodedEthereumTransaction,
  EthereumAction,
  EthereumSendResult,
  EthereumTransactionInput,
  PreparedEthereumTransaction,
  TokenInfo,
  TokenKind,
  TransactionScanner,
  TransactionScanResult,
} from './ethereum/types.ts'
export { formatNativeAmount, formatTokenAmount, formatUsd } from './format.ts'
export {
  type GetTokenPriceParameters,
  type GetTokenPriceReturnType,
  getTokenPrice,
} from './prices.ts'
