import { randomBytes } from 'node:crypto'
import type {
  CreateEmbeddedWalletsRequest,
  PasswordKdf,
  RecoveryMaterial,
} from '@latchkey/protocol'

// Valid-looking embedded-wallet test data: real address formats, base64url shares.

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** A random Ethereum address (0x + 40 hex, lowercase). */
export const ethAddress = (): string => `0x${randomBytes(20).toString('hex')}`

/** A random 44-character base58 Solana address. */
export const solAddress = (): string =>
  Array.from(randomBytes(44), (b) => BASE58[b % BASE58.length]).join('')

/** Random bytes as base64url without padding. */
export const b64url = (bytes = 32): string => randomBytes(bytes).toString('base64url')

/** EIP-55-looking mixed case (not a real checksum: the server treats case as insignificant). */
export const mixedCase = (address: string): string =>
  `0x${[...address.slice(2)].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join('')}`

export const passwordKdf = (): PasswordKdf => ({
  algorithm: 'argon2id',
  salt: b64url(16),
  memory_kib: 19_456,
  iterations: 2,
  parallelism: 1,
})

export function recovery(method: RecoveryMaterial['method'] = 'latchkey'): RecoveryMaterial {
  const ciphertext = b64url(61)
  switch (method) {
    case 'latchkey':
      return { method, ciphertext, recovery_key: b64url(32) }
    case 'user-passcode':
      return { method, ciphertext, kdf: passwordKdf() }
    default:
      return { method, ciphertext, key_id: keyId() }
  }
}

/** A cloud recovery key id: 16 random bytes, base64url (22 characters). */
export const keyId = (): string => b64url(16)

/** An HD secret with its index-0 Ethereum wallet (and optionally index-0 Solana). */
export function hdBody(
  options: { solana?: boolean; recovery?: RecoveryMaterial } = {},
): CreateEmbeddedWalletsRequest & { entropy_id: string; auth_share: string } {
  const entropy = ethAddress()
  return {
    entropy_id: entropy,
    entropy_type: 'hd',
    auth_share: b64url(33),
    recovery: options.recovery ?? recovery('latchkey'),
    wallets: [
      { chain_type: 'ethereum', address: entropy, wallet_index: 0 },
      ...(options.solana
        ? [{ chain_type: 'solana' as const, address: solAddress(), wallet_index: 0 }]
        : []),
    ],
  }
}

/** An imported private key: one wallet, no index, address = entropy id. */
export function importBody(
  chain: 'ethereum' | 'solana' = 'ethereum',
  options: { recovery?: RecoveryMaterial } = {},
): CreateEmbeddedWalletsRequest & { entropy_id: string; auth_share: string } {
  const address = chain === 'ethereum' ? ethAddress() : solAddress()
  return {
    entropy_id: address,
    entropy_type: 'private-key',
    auth_share: b64url(33),
    recovery: options.recovery ?? recovery('user-passcode'),
    wallets: [{ chain_type: chain, address, wallet_index: null }],
  }
}
