import { SIMPLE_7702_ACCOUNT_ADDRESS } from '@latchkey/protocol/schemas'
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { hashTypedData, type TypedDataDefinition } from 'viem'
import { hashAuthorization } from 'viem/utils'
import { PageError } from './errors.ts'

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/

/**
 * The bytes of a `personal_sign` message: `0x`-prefixed even-length hex is
 * raw bytes (what wallets and viem send), anything else is UTF-8 text.
 */
export function personalMessageBytes(message: string): Uint8Array {
  const bytes = HEX_BYTES.test(message) ? hexToBytes(message.slice(2)) : utf8ToBytes(message)
  if (bytes.length === 0) throw new PageError('EMPTY_MESSAGE')
  return bytes
}

/** EIP-191 version 0x45: keccak256("\x19Ethereum Signed Message:\n" + len + message). */
export function hashPersonalMessage(message: Uint8Array): Uint8Array {
  const prefix = utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`)
  const data = new Uint8Array(prefix.length + message.length)
  data.set(prefix)
  data.set(message, prefix.length)
  return keccak_256(data)
}

/** Signs a 32-byte digest: `0x` r ‖ s ‖ v (v = 27 + recovery), low-s, RFC 6979 nonces. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): `0x${string}` {
  // format 'recovered' is [recovery, r(32), s(32)].
  const sig = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' })
  const out = new Uint8Array(65)
  out.set(sig.subarray(1, 65))
  out[64] = 27 + (sig[0] as number)
  return `0x${bytesToHex(out)}`
}

/** `personal_sign` (EIP-191). */
export function personalSign(message: string, privateKey: Uint8Array): `0x${string}` {
  return signDigest(hashPersonalMessage(personalMessageBytes(message)), privateKey)
}

/** `eth_signTypedData_v4` (EIP-712): the JSON `{ types, primaryType, domain, message }`. */
export function signTypedDataV4(json: string, privateKey: Uint8Array): `0x${string}` {
  let typed: TypedDataDefinition
  let digest: `0x${string}`
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>
    if (!parsed || typeof parsed !== 'object' || typeof parsed.primaryType !== 'string')
      throw new Error('not typed data')
    typed = {
      types: parsed.types,
      primaryType: parsed.primaryType,
      domain: parsed.domain ?? {},
      message: parsed.message,
    } as TypedDataDefinition
    digest = hashTypedData(typed)
  } catch {
    throw new PageError('INVALID_PAYLOAD', 'The typed data is not valid EIP-712')
  }
  return signDigest(hexToBytes(digest.slice(2)), privateKey)
}

/**
 * The only EIP-7702 delegate the enclave signs for: eth-infinitism's audited
 * Simple7702Account (EntryPoint v0.8), what a `simple_7702` smart wallet runs.
 * An authorization hands the EOA's whole balance to the delegate's code, so a
 * host page must not be able to name any other contract.
 */
export const SIMPLE_7702_ACCOUNT = SIMPLE_7702_ACCOUNT_ADDRESS

/**
 * `eth_signAuthorization` (EIP-7702): the digest
 * `keccak256(0x05 ‖ rlp([chainId, address, nonce]))` is computed here from
 * the fields, never taken from the host.
 */
export function signAuthorization(
  authorization: { chainId: number; address: string; nonce: number },
  privateKey: Uint8Array,
): `0x${string}` {
  const { chainId, address, nonce } = authorization
  // Chain id 0 would make the authorization valid on every chain (EIP-7702).
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new PageError('INVALID_PAYLOAD', 'The authorization needs a chain id')
  if (!Number.isSafeInteger(nonce) || nonce < 0)
    throw new PageError('INVALID_PAYLOAD', 'The authorization nonce is not valid')
  if (address.toLowerCase() !== SIMPLE_7702_ACCOUNT.toLowerCase())
    throw new PageError('INVALID_PAYLOAD', 'The wallet delegates only to Simple7702Account')
  const digest = hashAuthorization({ chainId, address: SIMPLE_7702_ACCOUNT, nonce, to: 'bytes' })
  return signDigest(digest, privateKey)
}

/** Solana `signMessage`: ed25519 over the raw bytes; 64-byte signature. */
export function signSolanaMessage(message: Uint8Array, seed: Uint8Array): Uint8Array {
  if (message.length === 0) throw new PageError('EMPTY_MESSAGE')
  return ed25519.sign(message, seed)
}
