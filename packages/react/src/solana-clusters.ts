// The Solana clusters an app sends on (spec 03 §9), in a leaf file the
// configuration and the transaction requests both import.

/** A Solana cluster the app sends on (spec 03 §9: mainnet-beta, devnet, testnet). */
export interface SolanaCluster {
  /** 'mainnet-beta', 'devnet', 'testnet', or the app's own (a local ledger). */
  name: string
  rpcUrl: string
}

export const DEFAULT_SOLANA_CLUSTERS: readonly SolanaCluster[] = [
  { name: 'mainnet-beta', rpcUrl: 'https://api.mainnet-beta.solana.com' },
]

const SOLANA_CLUSTER_LABELS: Record<string, string> = {
  'mainnet-beta': 'Solana',
  devnet: 'Devnet',
  testnet: 'Testnet',
}

/**
 * A Solana cluster's name as the screens show it (spec 03 §9: labels
 * Solana, Devnet, Testnet); an app's own cluster keeps its name.
 *
 * @example
 * solanaClusterLabel('mainnet-beta') // 'Solana'
 * solanaClusterLabel('localnet') // 'localnet'
 */
export const solanaClusterLabel = (name: string): string => SOLANA_CLUSTER_LABELS[name] ?? name
