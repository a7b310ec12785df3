import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64urlnopad, utf8 } from '@scure/base'
import { randomHex32 } from './crypto.ts'

// The relay's `auth` query parameter (WalletConnect's relay-auth, "did-jwt"
// with EdDSA): the client proves it holds the ed25519 key behind its id.

/** Multicodec prefix of an ed25519 public key (0xed 0x01, "K36" in base58btc). */
const ED25519_MULTICODEC = [0xed, 0x01]
const ONE_DAY_S = 86_400

/** `did:key:z…`: the client id the relay sees, from its ed25519 public key. */
export function didKey(publicKey: Uint8Array): string {
  return `did:key:z${base58.encode(Uint8Array.from([...ED25519_MULTICODEC, ...publicKey]))}`
}

const encodeJson = (value: unknown) => base64urlnopad.encode(utf8.decode(JSON.stringify(value)))

/**
 * A relay JWT for `aud` (the relay URL), signed with the client's ed25519
 * seed: `{ iss: did:key, sub: random, aud, iat, exp: iat + 1 day }`.
 */
export function signRelayJwt(
  seed: Uint8Array,
  aud: string,
  iat = Math.floor(Date.now() / 1000),
): string {
  const header = { alg: 'EdDSA', typ: 'JWT' }
  const payload = {
    iss: didKey(ed25519.getPublicKey(seed)),
    sub: randomHex32(),
    aud,
    iat,
    exp: iat + ONE_DAY_S,
  }
  const data = `${encodeJson(header)}.${encodeJson(payload)}`
  const signature = ed25519.sign(utf8.decode(data), seed)
  return `${data}.${base64urlnopad.encode(signature)}`
}
