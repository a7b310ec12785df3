import { LatchkeyError } from '@latchkey/core'
import type { IdentifierString } from '@wallet-standard/base'
import type { SolanaCluster } from '../solana-clusters.ts'

// How the app's Solana clusters and embedded addresses look to a Wallet
// Standard app: chains are `solana:{cluster}` (@solana/wallet-standard-chains
// names mainnet 'solana:mainnet'), accounts carry the 32-byte public key.

/**
 * The Wallet Standard chain of one of the app's clusters: 'mainnet-beta' is
 * 'solana:mainnet'; 'devnet', 'testnet', 'localnet' and any cluster of the
 * app's own keep their name.
 *
 * @example
 * clusterChain({ name: 'mainnet-beta', rpcUrl }) // 'solana:mainnet'
 * clusterChain({ name: 'localnet', rpcUrl }) // 'solana:localnet'
 */
export const clusterChain = (cluster: SolanaCluster): IdentifierString =>
  `solana:${cluster.name === 'mainnet-beta' ? 'mainnet' : cluster.name}`

/**
 * The name of the app's cluster a Wallet Standard request names by `chain`;
 * a chain of none of them is UNSUPPORTED_CHAIN, before anything is signed.
 */
export function clusterOfChain(clusters: readonly SolanaCluster[], chain: string): string {
  const cluster = clusters.find((c) => clusterChain(c) === chain)
  if (!cluster)
    throw new LatchkeyError(
      'UNSUPPORTED_CHAIN',
      `Solana chain ${chain} is not one of the app's solanaClusters.`,
      { details: { chain } },
    )
  return cluster.name
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/**
 * The 32-byte ed25519 public key a base58 Solana address spells
 * (`WalletAccount.publicKey`). A few lines rather than @solana/kit, so the
 * registered wallet's chunk stays small.
 *
 * @example
 * solanaPublicKey('11111111111111111111111111111111') // Uint8Array(32) of zeros
 */
export function solanaPublicKey(address: string): Uint8Array {
  let value = 0n
  for (const char of address) {
    const digit = BASE58.indexOf(char)
    if (digit < 0) throw new RangeError(`Not a base58 Solana address: ${address}`)
    value = value * 58n + BigInt(digit)
  }
  const key = new Uint8Array(32)
  for (let i = 31; i >= 0 && value > 0n; i--) {
    key[i] = Number(value & 0xffn)
    value >>= 8n
  }
  if (value > 0n) throw new RangeError(`Not a 32-byte Solana address: ${address}`)
  return key
}
