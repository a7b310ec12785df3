import { formatUserMessage } from '@latchkey/protocol/errors'
import type { FundingConfig, FundingOption } from '@latchkey/protocol/schemas'
import { LatchkeyError } from '../errors.ts'
import { moonpayCurrencyCode } from './moonpayCurrencyCode.ts'
import { type FundingAsset, type SolanaCluster, usdcAddress } from './usdc.ts'

/**
 * The chains Coinbase Onramp sells on (spec 03 §5): Ethereum, Base,
 * Optimism, Polygon and Arbitrum; anything else is 'Unsupported chainId'.
 */
export const COINBASE_ONRAMP_CHAIN_IDS: readonly number[] = [1, 8453, 10, 137, 42161]

export interface ResolveFundingOptionsInput {
  /** The app's `funding_config` (null: funding off). */
  config: FundingConfig | null
  chainType: 'ethereum' | 'solana'
  /** The EIP-155 chain to fund (Ethereum-style). */
  chainId?: number
  /**
   * The cluster to fund (Solana), by name: 'mainnet-beta' (the default),
   * 'devnet', 'testnet', or an app's own cluster (a local validator), where
   * no card provider can deliver.
   */
  cluster?: SolanaCluster | (string & {})
  asset: FundingAsset
  /** The chain ids the host configured on LatchkeyProvider. */
  hostChainIds: readonly number[]
}

/**
 * The funding options the method chooser shows, after spec 03 §5's checks
 * in order:
 * 1. funding enabled with at least one option, else FUNDING_NOT_ENABLED;
 * 2. an Ethereum-style chain the host configured, else
 *    FUNDING_CHAIN_NOT_CONFIGURED (`details: { id }`, the message filled in);
 * 3. no USDC on the Solana testnet, else FUNDING_USDC_SOLANA_TESTNET.
 *
 * Then drops what cannot work on this chain: MoonPay where its currency is
 * not buyable (or the app set no MoonPay key) — on Solana, it delivers on
 * mainnet with a live key and on devnet with a sandbox key, nowhere else —,
 * Coinbase off its five chains and off Solana mainnet, and wallet transfer of USDC where the USDC
 * address is unknown (§8: a warning only).
 *
 * @example
 * const options = resolveFundingOptions({
 *   config: appConfig.funding_config, chainType: 'ethereum', chainId: 8453,
 *   asset: 'native-currency', hostChainIds: chains.map((c) => c.id),
 * }) // [{ method: 'card', provider: 'moonpay' }, { method: 'manual', provider: null }, …]
 */
export function resolveFundingOptions(input: ResolveFundingOptionsInput): FundingOption[] {
  const { config, chainType, chainId, asset, hostChainIds } = input
  const cluster = knownCluster(input.cluster ?? 'mainnet-beta')
  if (!config || config.options.length === 0) throw new LatchkeyError('FUNDING_NOT_ENABLED')
  if (chainType === 'ethereum' && (chainId === undefined || !hostChainIds.includes(chainId))) {
    const id = String(chainId)
    throw new LatchkeyError(
      'FUNDING_CHAIN_NOT_CONFIGURED',
      formatUserMessage('FUNDING_CHAIN_NOT_CONFIGURED', { id }).title,
      { details: { id } },
    )
  }
  if (chainType === 'solana' && cluster === 'testnet' && asset === 'USDC')
    throw new LatchkeyError('FUNDING_USDC_SOLANA_TESTNET')

  return config.options.filter((option) => {
    if (option.provider === 'moonpay')
      return (
        config.moonpay !== null &&
        moonpayCurrencyCode({ chainType, chainId, cluster, asset }) !== undefined &&
        // Solana: a live key delivers on mainnet, a sandbox key on devnet.
        (chainType !== 'solana' || cluster === (config.moonpay.sandbox ? 'devnet' : 'mainnet-beta'))
      )
    if (option.provider === 'coinbase') return coinbaseSells(chainType, chainId, cluster)
    if (option.method === 'wallets' && chainType === 'ethereum' && asset === 'USDC') {
      if (chainId !== undefined && usdcAddress(chainId)) return true
      console.warn(
        `Latchkey: funding by external wallet is disabled: no USDC address known for chain ${chainId}`,
      )
      return false
    }
    return true
  })
}

const knownCluster = (name: string): SolanaCluster | undefined =>
  name === 'mainnet-beta' || name === 'devnet' || name === 'testnet' ? name : undefined

function coinbaseSells(
  chainType: 'ethereum' | 'solana',
  chainId: number | undefined,
  cluster: SolanaCluster | undefined,
): boolean {
  if (chainType === 'solana') return cluster === 'mainnet-beta'
  return chainId !== undefined && COINBASE_ONRAMP_CHAIN_IDS.includes(chainId)
}
