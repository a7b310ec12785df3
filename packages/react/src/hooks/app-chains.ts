import type { Chain } from 'viem'
import { mainnet } from 'viem/chains'
import type { LatchkeyConfig } from '../config.ts'
import { DEFAULT_SOLANA_CLUSTERS, type SolanaCluster } from '../solana-clusters.ts'

// A leaf: the transaction hooks, funding and the funding screens all read the
// app's chains here, so none of them imports another to get them.

/** The app's chains (`chains`, default `[mainnet]`) and the one used when a request names none. */
export function appChains(host: LatchkeyConfig): { chains: Chain[]; defaultChain: Chain } {
  const chains = (host.chains ?? [host.defaultChain ?? mainnet]) as Chain[]
  return { chains, defaultChain: (host.defaultChain ?? chains[0] ?? mainnet) as Chain }
}

/** The app's Solana clusters (`solanaClusters`, default mainnet-beta). */
export const appSolanaClusters = (host: LatchkeyConfig): readonly SolanaCluster[] =>
  host.solanaClusters?.length ? host.solanaClusters : DEFAULT_SOLANA_CLUSTERS

// Anvil, Hardhat and Foundry (31337) and viem's `localhost` (1337) carry no
// `testnet` flag, but their coins are worth nothing either.
const LOCAL_CHAIN_IDS = new Set([31337, 1337])

/**
 * A test network: `chain.testnet`, or a local node's chain. Bridging pairs
 * these with test Solana clusters (spec 03 §5 "testnets only with test
 * clusters"), never with mainnet-beta.
 */
export const isTestChain = (chain: Chain): boolean =>
  chain.testnet === true || LOCAL_CHAIN_IDS.has(chain.id)
