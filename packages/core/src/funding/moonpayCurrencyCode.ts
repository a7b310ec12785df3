import type { FundingAsset, SolanaCluster } from './usdc.ts'

export interface MoonpayCurrencyCodeInput {
  chainType: 'ethereum' | 'solana'
  /** EIP-155 chain id (Ethereum-style chains). */
  chainId?: number
  /** Solana cluster (undefined: an app's own cluster, where MoonPay cannot deliver). */
  cluster?: SolanaCluster
  asset: FundingAsset
}

// MoonPay's currency codes (its `GET /v3/currencies` list): the native coin
// and Circle's USDC on each network MoonPay sells on. A chain missing here is
// not buyable with MoonPay, so the card option is not offered (spec 03 §5).
const MAINNET_CODES: Readonly<Record<number, { native: string; usdc?: string }>> = {
  1: { native: 'eth', usdc: 'usdc' },
  10: { native: 'eth_optimism', usdc: 'usdc_optimism' },
  137: { native: 'pol_polygon', usdc: 'usdc_polygon' },
  8453: { native: 'eth_base', usdc: 'usdc_base' },
  42161: { native: 'eth_arbitrum', usdc: 'usdc_arbitrum' },
  42220: { native: 'celo_celo' },
  43114: { native: 'avax_cchain', usdc: 'usdc_cchain' },
}

// MoonPay's sandbox (`use_sandbox`) delivers the same codes on each network's
// test chain, so a testnet buys with its mainnet's code.
const TESTNET_OF: Readonly<Record<number, number>> = {
  11155111: 1, // Sepolia
  11155420: 10, // OP Sepolia
  80002: 137, // Polygon Amoy
  84532: 8453, // Base Sepolia
  421614: 42161, // Arbitrum Sepolia
  43113: 43114, // Avalanche Fuji
}

/** Chain ids that are test networks for MoonPay: the widget must use the sandbox. */
export function isMoonpayTestnet(chainId: number): boolean {
  return chainId in TESTNET_OF
}

/**
 * MoonPay's currency code for buying `asset` into a wallet on this chain
 * (spec 03 §9: "card currency code comes from the chain; Solana USDC uses
 * USDC_SOL, SOL uses SOL"), or undefined when MoonPay does not sell it
 * there: then the MoonPay card option is not offered (§5).
 *
 * @example
 * moonpayCurrencyCode({ chainType: 'ethereum', chainId: 8453, asset: 'USDC' }) // 'usdc_base'
 * moonpayCurrencyCode({ chainType: 'solana', cluster: 'mainnet-beta', asset: 'native-currency' }) // 'sol'
 * moonpayCurrencyCode({ chainType: 'solana', cluster: 'testnet', asset: 'native-currency' }) // undefined
 * moonpayCurrencyCode({ chainType: 'ethereum', chainId: 59144, asset: 'native-currency' }) // undefined
 */
export function moonpayCurrencyCode(input: MoonpayCurrencyCodeInput): string | undefined {
  if (input.chainType === 'solana') {
    // MoonPay delivers on mainnet (live) and devnet (its sandbox) only: not on
    // the testnet, nor on an app's own cluster (a local validator).
    if (input.cluster !== 'mainnet-beta' && input.cluster !== 'devnet') return undefined
    return input.asset === 'USDC' ? 'usdc_sol' : 'sol'
  }
  if (input.chainId === undefined) return undefined
  const codes = MAINNET_CODES[TESTNET_OF[input.chainId] ?? input.chainId]
  if (!codes) return undefined
  return input.asset === 'USDC' ? codes.usdc : codes.native
}
