// Moved to @latchkey/protocol/keys (shared with the server's delegated actions).
export {
  canonicalEntropyId,
  type EthereumAddress,
  ethereumAddressOfPrivateKey,
  sameEntropyId,
  toChecksumAddress,
} from '@latchkey/protocol/keys'
