import { EnclaveError } from '@latchkey/protocol/keys'
import { base64urlnopad } from '@scure/base'

/**
 * Encodes bytes as base64url without padding, the wire form of shares,
 * ciphertexts and salts (protocol `base64urlSchema`).
 *
 * @example
 * ```ts
 * bytesToBase64url(new Uint8Array([251, 255])) // '-_8'
 * ```
 */
export function bytesToBase64url(bytes: Uint8Array): string {
  return base64urlnopad.encode(bytes)
}

/**
 * Decodes base64url without padding. Padding, the standard alphabet (`+`, `/`)
 * and non-canonical trailing bits are refused with `INVALID_ENCODING`, so each
 * byte string has exactly one spelling.
 *
 * @example
 * ```ts
 * base64urlToBytes('-_8') // Uint8Array [251, 255]
 * ```
 */
export function base64urlToBytes(text: string): Uint8Array {
  if (typeof text !== 'string') {
    throw new EnclaveError('INVALID_ENCODING', 'Expected a base64url string')
  }
  try {
    return base64urlnopad.decode(text)
  } catch (cause) {
    throw new EnclaveError('INVALID_ENCODING', 'Expected base64url without padding', { cause })
  }
}
