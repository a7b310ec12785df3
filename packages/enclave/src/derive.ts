// Moved to @latchkey/protocol/keys (shared with the server's delegated actions).
export {
  deriveEthereumAccount,
  deriveEthereumAccountFromSeed,
  deriveSolanaAccount,
  deriveSolanaAccountFromSeed,
  type EthereumAccount,
  entropyIdOf,
  ethereumPath,
  hdSeedOf,
  mnemonicOf,
  type SolanaAccount,
  secretFromMnemonic,
  solanaPath,
} from '@latchkey/protocol/keys'
