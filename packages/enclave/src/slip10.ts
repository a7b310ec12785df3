// Moved to @latchkey/protocol/keys (shared with the server's delegated actions).
export { deriveSlip10Ed25519, parseHardenedPath, type Slip10Node } from '@latchkey/protocol/keys'
