/**
 * External wallets (`@latchkey/core/external`): discovery, connectors and
 * SIWE / SIWS sign-in. A separate entry so apps and the modal load it only
 * when a wallet is needed.
 */

export { addChainParameters, checkChains, switchEthereumChain } from './chains.ts'
export { providerErrorCode, toWalletError, withWalletTimeout } from './errors.ts'
export type {
  DetectedEthereumWallet,
  EIP1193Provider,
  EIP6963ProviderInfo,
} from './ethereum-discovery.ts'
export { watchEthereumWallets } from './ethereum-discovery.ts'
export {
  type ConnectHooks,
  createExternalWallets,
  type ExternalWallets,
  type ExternalWalletsOptions,
  type ExternalWalletsState,
} from './external-wallets.ts'
export {
  DEFAULT_WALLET_LIST,
  KNOWN_WALLETS,
  mobileLink,
  normalizeWalletName,
  slugForWallet,
  type WalletListing,
} from './listings.ts'
export { buildMemoTransaction, MEMO_PROGRAM_ID } from './memo-transaction.ts'
export {
  signInWithEthereum,
  signInWithSolana,
  type WalletSignInOptions,
  type WalletSignInResult,
  type WalletSignInStatus,
} from './sign-in.ts'
export { isSolanaSignInWallet, watchSolanaWallets } from './solana-discovery.ts'
export type {
  ConnectedEthereumExternalWallet,
  ConnectedExternalWallet,
  ConnectedSolanaExternalWallet,
  ConnectorState,
  ConnectorType,
  EvmChain,
  SolanaSignInInput,
  StoredConnection,
  WalletChainType,
  WalletOption,
  WalletOptionKind,
} from './types.ts'
export { hasStoredWalletConnections } from './wallet-store.ts'
