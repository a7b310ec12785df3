import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { x25519 } from '@noble/curves/ed25519.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64 } from '@scure/base'

// WalletConnect v2's message crypto (specs: "Crypto" / "Envelope types"; the
// reference is WalletConnect's utils package, crypto.ts). Keys and topics travel as
// hex, envelopes as base64.

const TYPE_0 = 0
const TYPE_1 = 1
const IV_LENGTH = 12
const KEY_LENGTH = 32

export { bytesToHex, hexToBytes, randomBytes }

/** 32 random bytes as hex: a pairing's symmetric key, a JWT's `sub`. */
export const randomHex32 = () => bytesToHex(randomBytes(KEY_LENGTH))

/** A topic from its symmetric key: sha256 of the key's bytes, hex (WalletConnect's `hashKey`). */
export const topicOf = (symKeyHex: string) => bytesToHex(sha256(hexToBytes(symKeyHex)))

/** An X25519 key pair, hex (the proposer's key of a session proposal). */
export function generateKeyPair(): { privateKey: string; publicKey: string } {
  const secret = x25519.utils.randomSecretKey()
  return { privateKey: bytesToHex(secret), publicKey: bytesToHex(x25519.getPublicKey(secret)) }
}

/** The session key: HKDF-SHA256 over the X25519 shared secret, no salt or info (`deriveSymKey`). */
export function deriveSymKey(privateKeyHex: string, peerPublicKeyHex: string): string {
  const shared = x25519.getSharedSecret(hexToBytes(privateKeyHex), hexToBytes(peerPublicKeyHex))
  return bytesToHex(hkdf(sha256, shared, undefined, undefined, KEY_LENGTH))
}

/** A type 0 envelope: `0x00 | iv | ChaCha20-Poly1305(message)`, base64. */
export function encrypt(symKeyHex: string, message: string): string {
  const iv = randomBytes(IV_LENGTH)
  const sealed = chacha20poly1305(hexToBytes(symKeyHex), iv).encrypt(utf8ToBytes(message))
  const envelope = new Uint8Array(1 + IV_LENGTH + sealed.length)
  envelope[0] = TYPE_0
  envelope.set(iv, 1)
  envelope.set(sealed, 1 + IV_LENGTH)
  return base64.encode(envelope)
}

export interface DecryptKeys {
  /** The topic's symmetric key (type 0). */
  symKey: string
  /** Our X25519 private key, for type 1 envelopes (`0x01 | senderPublicKey | iv | sealed`). */
  privateKey?: string
}

/**
 * Opens a type 0 or type 1 envelope. Throws when it is neither, or when the
 * Poly1305 tag does not match (wrong key, altered message).
 */
export function decrypt(encoded: string, keys: DecryptKeys): string {
  const bytes = base64.decode(encoded)
  let offset = 1
  let key = keys.symKey
  if (bytes[0] === TYPE_1) {
    if (!keys.privateKey) throw new Error('A type 1 envelope needs our private key')
    const sender = bytes.slice(offset, offset + KEY_LENGTH)
    key = deriveSymKey(keys.privateKey, bytesToHex(sender))
    offset += KEY_LENGTH
  } else if (bytes[0] !== TYPE_0) throw new Error(`Envelope type ${bytes[0]} is not supported`)
  const iv = bytes.slice(offset, offset + IV_LENGTH)
  const sealed = bytes.slice(offset + IV_LENGTH)
  return new TextDecoder().decode(chacha20poly1305(hexToBytes(key), iv).decrypt(sealed))
}
