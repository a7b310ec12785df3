/**
 * Embedded-wallet key code shared by the enclave and the server (the server
 * rebuilds a delegated wallet's key: docs/delegated-actions.md): wallet
 * secrets, BIP-32/SLIP-10 derivation, addresses and 2-of-2 shares. Pure
 * noble/scure code, no Node built-ins and no WebCrypto beyond
 * `crypto.getRandomValues`. A subpath of its own (`@latchkey/protocol/keys`):
 * the main entry never imports it, so host bundles do not carry it.
 *
 * @example
 * ```ts
 * import { reconstructAndVerify, deriveEthereumAccount } from '@latchkey/protocol/keys'
 * const secret = await reconstructAndVerify(deviceShare, authShare, entropyId)
 * const { privateKey } = deriveEthereumAccount(secret, 0)
 * ```
 * @module
 */
export {
  canonicalEntropyId,
  type EthereumAddress,
  ethereumAddressOfPrivateKey,
  sameEntropyId,
  toChecksumAddress,
} from './address.ts'
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
} from './derive.ts'
export { EnclaveError, EnclaveErrorCode, isEnclaveError } from './errors.ts'
export {
  assertValidSecret,
  decodeSecret,
  encodeSecret,
  entropyTypeOf,
  generateHdSecret,
  importEthereumKey,
  importSolanaKey,
  SECRET_KIND_BYTE,
  SECRET_PAYLOAD_LENGTH,
  type SecretKind,
  type WalletSecret,
  wipeSecret,
} from './secret.ts'
export { combineShares, reconstructAndVerify, type SecretShares, splitSecret } from './shares.ts'
export { deriveSlip10Ed25519, parseHardenedPath, type Slip10Node } from './slip10.ts'
