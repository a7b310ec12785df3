// The crypto core's error moved to @latchkey/protocol/keys with the key code
// (one class, so `instanceof` holds whichever side threw it).
export { EnclaveError, EnclaveErrorCode, isEnclaveError } from '@latchkey/protocol/keys'
