import type { SolanaCluster } from './usdc.ts'

export type FormatNetworkNameInput =
  | { chainType: 'solana'; cluster: SolanaCluster }
  | { chainType: 'ethereum'; chain: { name: string } }

const CLUSTER_LABELS: Record<SolanaCluster, string> = {
  'mainnet-beta': 'Solana',
  devnet: 'Devnet',
  testnet: 'Testnet',
}

/**
 * The network's name as Receive funds says it ("…to receive funds on
 * {network}", spec 03 §2): Solana, Devnet or Testnet for a Solana cluster
 * (§9 "Solana clusters"), otherwise the chain's own name.
 *
 * @example
 * formatNetworkName({ chainType: 'solana', cluster: 'devnet' }) // 'Devnet'
 * formatNetworkName({ chainType: 'ethereum', chain: base })     // 'Base'
 */
export function formatNetworkName(input: FormatNetworkNameInput): string {
  return input.chainType === 'solana' ? CLUSTER_LABELS[input.cluster] : input.chain.name
}
