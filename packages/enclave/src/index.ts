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
  assertValidSecret,
  canonicalEntropyId,
  combineShares,
  decodeSecret,
  deriveEthereumAccount,
  deriveSlip10Ed25519,
  deriveSolanaAccount,
  EnclaveError,
  EnclaveErrorCode,
  type EthereumAccount,
  type EthereumAddress,
  encodeSecret,
  entropyIdOf,
  entropyTypeOf,
  ethereumAddressOfPrivateKey,
  ethereumPath,
  generateHdSecret,
  importEthereumKey,
  importSolanaKey,
  isEnclaveError,
  mnemonicOf,
  parseHardenedPath,
  reconstructAndVerify,
  SECRET_KIND_BYTE,
  SECRET_PAYLOAD_LENGTH,
  type SecretKind,
  type SecretShares,
  type Slip10Node,
  type SolanaAccount,
  sameEntropyId,
  secretFromMnemonic,
  solanaPath,
  splitSecret,
  toChecksumAddress,
  type WalletSecret,
  wipeSecret,
} from '@latchkey/protocol/keys'
export { base64urlToBytes, bytesToBase64url } from './encoding.ts'
export {
  derivePasswordKey,
  generateRecoveryKey,
  newPasswordKdf,
  openRecoveryShare,
  PASSWORD_KDF_MINIMUM,
  type PasswordKdf,
  sealRecoveryShare,
} from './recovery.ts'
