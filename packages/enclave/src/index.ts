/**
 * The embedded-wallet enclave's crypto core: wallet secrets, key derivation,
 * 2-of-2 shares and sealed recovery shares (docs/security.md "Embedded wallet
 * keys"). Browser-only APIs: WebCrypto and noble/scure, no Node built-ins.
 *
 * @example
 * ```ts
 * const secret = generateHdSecret()
 * const entropyId = entropyIdOf(secret)
 * const { deviceShare, authShare } = await splitSecret(secret)
 * const recoveryKey = generateRecoveryKey()
 * const ciphertext = await sealRecoveryShare(deviceShare, recoveryKey, entropyId)
 * // later, on a new device:
 * const device = await openRecoveryShare(ciphertext, recoveryKey, entropyId)
 * const again = await reconstructAndVerify(device, authShare, entropyId)
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
  deriveSolanaAccount,
  type EthereumAccount,
  entropyIdOf,
  ethereumPath,
  mnemonicOf,
  type SolanaAccount,
  secretFromMnemonic,
  solanaPath,
} from './derive.ts'
export { base64urlToBytes, bytesToBase64url } from './encoding.ts'
export { EnclaveError, EnclaveErrorCode, isEnclaveError } from './errors.ts'
export {
  derivePasswordKey,
  generateRecoveryKey,
  newPasswordKdf,
  openRecoveryShare,
  PASSWORD_KDF_MINIMUM,
  type PasswordKdf,
  sealRecoveryShare,
} from './recovery.ts'
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
export {
  combineShares,
  reconstructAndVerify,
  type SecretShares,
  splitSecret,
} from './shares.ts'
export { deriveSlip10Ed25519, parseHardenedPath, type Slip10Node } from './slip10.ts'
