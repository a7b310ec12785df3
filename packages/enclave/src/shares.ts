// Moved to @latchkey/protocol/keys (shared with the server's delegated actions).
export {
  combineShares,
  reconstructAndVerify,
  type SecretShares,
  splitSecret,
} from '@latchkey/protocol/keys'
