import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { hex } from '@scure/base'

/** An Ethereum address in EIP-55 mixed-case checksum form. */
export type EthereumAddress = `0x${string}`

/**
 * EIP-55 checksum: uppercase each hex letter whose nibble of
 * keccak256(lowercase hex) is ≥ 8.
 *
 * @example
 * ```ts
 * toChecksumAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
 * // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 * ```
 */
export function toChecksumAddress(address: string): EthereumAddress {
  const lower = address.toLowerCase().replace(/^0x/, '')
  const hash = hex.encode(keccak_256(utf8ToBytes(lower)))
  let out = '0x'
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i] as string
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? char.toUpperCase() : char
  }
  return out as EthereumAddress
}

/**
 * The Ethereum address of a secp256k1 private key: the last 20 bytes of
 * keccak256 of the uncompressed public key without its 0x04 prefix.
 */
export function ethereumAddressOfPrivateKey(privateKey: Uint8Array): EthereumAddress {
  const publicKey = secp256k1.getPublicKey(privateKey, false)
  return toChecksumAddress(hex.encode(keccak_256(publicKey.subarray(1)).subarray(12)))
}

/**
 * Compares two entropy ids: Ethereum addresses by their 20 bytes (any letter
 * case), Solana addresses exactly (base58 is case-sensitive).
 */
export function sameEntropyId(a: string, b: string): boolean {
  const ethereum = /^0x[0-9a-fA-F]{40}$/
  if (ethereum.test(a) && ethereum.test(b)) return a.toLowerCase() === b.toLowerCase()
  return a === b
}

/**
 * The spelling of an entropy id bound into ciphertexts as associated data:
 * Ethereum addresses lowercased (the server may store either case), Solana
 * addresses as they are.
 */
export function canonicalEntropyId(entropyId: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(entropyId) ? entropyId.toLowerCase() : entropyId
}
