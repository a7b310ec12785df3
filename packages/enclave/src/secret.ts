// Moved to @latchkey/protocol/keys (shared with the server's delegated actions).
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
} from '@latchkey/protocol/keys'
