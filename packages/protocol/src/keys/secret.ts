import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { equalBytes } from '@noble/curves/utils.js'
import { base58, hex } from '@scure/base'
import { EnclaveError } from './errors.ts'

/**
 * What a wallet secret is: BIP-39 entropy (`hd`), or an imported private key
 * that is its own entropy (security.md "The secret and its shares").
 */
export type SecretKind = 'hd' | 'ethereum-key' | 'solana-key'

/**
 * The secret that gets split into shares. `payload` is 16 bytes of BIP-39
 * entropy for `hd`, a 32-byte secp256k1 private key for `ethereum-key`, a
 * 32-byte ed25519 seed for `solana-key`.
 */
export type WalletSecret = { kind: SecretKind; payload: Uint8Array }

/** The first byte of an encoded secret. Stored inside every share: never renumber. */
export const SECRET_KIND_BYTE = { hd: 1, 'ethereum-key': 2, 'solana-key': 3 } as const

/** Payload length per kind: 16 bytes of entropy is a 12-word phrase (security bar 39: ≥ 128 bits). */
export const SECRET_PAYLOAD_LENGTH = { hd: 16, 'ethereum-key': 32, 'solana-key': 32 } as const

/**
 * Makes a new HD secret from 16 bytes of `crypto.getRandomValues`, inside the
 * enclave (security bar 39).
 *
 * @example
 * ```ts
 * const secret = generateHdSecret()
 * mnemonicOf(secret) // 12 words
 * ```
 */
export function generateHdSecret(): WalletSecret {
  const payload = crypto.getRandomValues(new Uint8Array(SECRET_PAYLOAD_LENGTH.hd))
  return { kind: 'hd', payload }
}

/**
 * Takes an imported Ethereum private key: 32 bytes, or 64 hex digits with or
 * without `0x`. The key must be a valid secp256k1 scalar (1 ≤ k < n).
 *
 * @example
 * ```ts
 * const secret = importEthereumKey('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
 * entropyIdOf(secret) // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 * ```
 */
export function importEthereumKey(key: Uint8Array | string): WalletSecret {
  let bytes: Uint8Array
  if (typeof key === 'string') {
    const digits = key.trim().replace(/^0x/i, '')
    if (!/^[0-9a-fA-F]{64}$/.test(digits)) {
      throw new EnclaveError('INVALID_KEY', 'An Ethereum private key is 64 hex digits')
    }
    bytes = hex.decode(digits.toLowerCase())
  } else if (key instanceof Uint8Array) {
    bytes = Uint8Array.from(key)
  } else {
    throw new EnclaveError('INVALID_KEY', 'An Ethereum private key is 32 bytes or hex')
  }
  if (bytes.length !== 32 || !secp256k1.utils.isValidSecretKey(bytes)) {
    throw new EnclaveError('INVALID_KEY', 'Not a valid secp256k1 private key')
  }
  return { kind: 'ethereum-key', payload: bytes }
}

/**
 * Takes an imported Solana key: the 32-byte ed25519 seed, or the 64-byte
 * Solana secret key (seed ‖ public key, as Phantom and `solana-keygen`
 * export it), as bytes or base58. For 64 bytes the public half must match the
 * seed, so a corrupted paste is refused rather than stored.
 *
 * @example
 * ```ts
 * const secret = importSolanaKey(phantomExportedBase58)
 * entropyIdOf(secret) // the Solana address
 * ```
 */
export function importSolanaKey(key: Uint8Array | string): WalletSecret {
  let bytes: Uint8Array
  if (typeof key === 'string') {
    try {
      bytes = base58.decode(key.trim())
    } catch (cause) {
      throw new EnclaveError('INVALID_KEY', 'A Solana secret key is base58', { cause })
    }
  } else if (key instanceof Uint8Array) {
    bytes = Uint8Array.from(key)
  } else {
    throw new EnclaveError('INVALID_KEY', 'A Solana secret key is bytes or base58')
  }
  if (bytes.length === 64) {
    const seed = bytes.slice(0, 32)
    if (!equalBytes(ed25519.getPublicKey(seed), bytes.subarray(32))) {
      bytes.fill(0)
      seed.fill(0)
      throw new EnclaveError('INVALID_KEY', 'The public half of the Solana key does not match')
    }
    bytes.fill(0)
    return { kind: 'solana-key', payload: seed }
  }
  if (bytes.length !== 32) {
    throw new EnclaveError('INVALID_KEY', 'A Solana secret key is 32 or 64 bytes')
  }
  return { kind: 'solana-key', payload: bytes }
}

/**
 * Checks a secret's kind and payload; throws `INVALID_SECRET` otherwise.
 * Used on both sides of the wire format so no malformed secret is ever split
 * or used.
 */
export function assertValidSecret(secret: WalletSecret): void {
  const kind = secret?.kind
  if (!(typeof kind === 'string' && Object.hasOwn(SECRET_KIND_BYTE, kind))) {
    throw new EnclaveError('INVALID_SECRET', 'Unknown secret kind')
  }
  const payload = secret.payload
  if (!(payload instanceof Uint8Array) || payload.length !== SECRET_PAYLOAD_LENGTH[kind]) {
    throw new EnclaveError(
      'INVALID_SECRET',
      `A ${kind} secret has ${SECRET_PAYLOAD_LENGTH[kind]} bytes`,
    )
  }
  if (kind === 'ethereum-key' && !secp256k1.utils.isValidSecretKey(payload)) {
    throw new EnclaveError('INVALID_SECRET', 'Not a valid secp256k1 private key')
  }
}

/**
 * Encodes a secret as the bytes that get split: `[kind byte, ...payload]`.
 *
 * @example
 * ```ts
 * encodeSecret(generateHdSecret()) // Uint8Array(17) [1, ...entropy]
 * ```
 */
export function encodeSecret(secret: WalletSecret): Uint8Array {
  assertValidSecret(secret)
  const bytes = new Uint8Array(1 + secret.payload.length)
  bytes[0] = SECRET_KIND_BYTE[secret.kind]
  bytes.set(secret.payload, 1)
  return bytes
}

/**
 * Decodes `[kind byte, ...payload]` back into a secret, refusing an unknown
 * kind or a wrong length with `INVALID_SECRET`. The payload is a copy.
 *
 * @example
 * ```ts
 * decodeSecret(encodeSecret(secret)) // { kind: 'hd', payload: Uint8Array(16) }
 * ```
 */
export function decodeSecret(bytes: Uint8Array): WalletSecret {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new EnclaveError('INVALID_SECRET', 'Secret bytes are empty')
  }
  const entry = Object.entries(SECRET_KIND_BYTE).find(([, byte]) => byte === bytes[0])
  if (!entry) throw new EnclaveError('INVALID_SECRET', 'Unknown secret kind')
  const secret: WalletSecret = { kind: entry[0] as SecretKind, payload: bytes.slice(1) }
  assertValidSecret(secret)
  return secret
}

/**
 * The protocol's `entropy_type` for a secret: `hd` or `private-key`.
 *
 * @example
 * ```ts
 * entropyTypeOf(generateHdSecret()) // 'hd'
 * ```
 */
export function entropyTypeOf(secret: WalletSecret): 'hd' | 'private-key' {
  assertValidSecret(secret)
  return secret.kind === 'hd' ? 'hd' : 'private-key'
}

/** Overwrites a secret's payload with zeros once it is no longer needed (best effort in JS). */
export function wipeSecret(secret: WalletSecret): void {
  secret.payload.fill(0)
}
