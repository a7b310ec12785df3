import { LatchkeyError, resolveFundingOptions, type User } from '@latchkey/core'
import type { CardProvider, FundingMethod } from '@latchkey/protocol/schemas'
import { useCallback } from 'react'
import type { Chain } from 'viem'
import { useLatchkeyInstance } from '../context.ts'
import type { FundWalletRequest, FundWalletUiConfig } from '../modal/funding/request.ts'
import type { SolanaCluster } from '../solana-clusters.ts'
import type { LatchkeyInstance } from '../store.ts'
import { appChains, appSolanaClusters } from './app-chains.ts'
import { isUserRejection } from './signing.ts'

// Balances, transfers, prices and the pollers load with the funding screens:
// the host page's first chunk carries only this hook.
const operations = () => import('../modal/funding/operations.ts')

/** What to fund: the chain's native currency, USDC, or any ERC-20 (Ethereum). */
export type FundWalletAsset = 'native-currency' | 'USDC' | { erc20: `0x${string}` }

export interface FundWalletOptions {
  /** Ethereum: one of the LatchkeyProvider `chains`. Default `defaultChain`. */
  chain?: Chain
  /** Solana: one of the app's `solanaClusters`, by name. Default the first. */
  cluster?: Pick<SolanaCluster, 'name'> & Partial<SolanaCluster>
  /** The amount to ask for, in whole tokens ('0.05'). Default the app's recommended amount. */
  amount?: string
  /** Default the app's recommended asset. */
  asset?: FundWalletAsset
  /** Launched once when the chooser opens: 'card', 'exchange', 'wallets' or 'manual' (Receive). */
  defaultFundingMethod?: FundingMethod
  card?: { preferredProvider?: CardProvider }
  uiConfig?: FundWalletUiConfig
}

export interface FundWalletResult {
  /** A purchase completed, a transfer landed, or the balance rose while Receive was open. */
  funded: boolean
}

/**
 * Opens the funding chooser (spec 03 "Funding method chooser") for one of
 * the user's wallets: pay with card (MoonPay or Coinbase Onramp, in a
 * popup), transfer from an exchange or from a connected wallet, or receive
 * by QR code. The checks of spec 03 §5 run first and throw a LatchkeyError:
 * FUNDING_NOT_ENABLED ('Wallet funding is not enabled'),
 * FUNDING_CHAIN_NOT_CONFIGURED ('Funding chain {id} is not in
 * LatchkeyProvider chains list'), FUNDING_USDC_SOLANA_TESTNET. Resolves
 * when the modal closes, with whether the wallet was funded.
 *
 * @example
 * const { fundWallet } = useFundWallet()
 * const { funded } = await fundWallet(wallet.address, { chain: base, asset: 'USDC', amount: '10' })
 */
export function useFundWallet(): {
  fundWallet(address: string, options?: FundWalletOptions): Promise<FundWalletResult>
} {
  const instance = useLatchkeyInstance()
  const fundWallet = useCallback(
    async (address: string, options: FundWalletOptions = {}) => {
      const request = await fundWalletRequest(instance, address, options)
      try {
        const result = await instance.openWalletScreen<FundWalletResult>(request)
        return result ?? { funded: false }
      } catch (error) {
        // Closing the chooser is how funding ends, not a failure.
        if (isUserRejection(error)) return { funded: false }
        throw error
      }
    },
    [instance],
  )
  return { fundWallet }
}

/** The user's wallet at `address` (embedded or linked), and its chain type. */
function fundedWallet(user: User | null, address: string): 'ethereum' | 'solana' {
  const same = (a: { address: string; chainType: string }) =>
    a.chainType === 'ethereum'
      ? a.address.toLowerCase() === address.toLowerCase()
      : a.address === address
  const wallet = user?.linkedAccounts.find(
    (a): a is Extract<typeof a, { type: 'wallet' }> => a.type === 'wallet' && same(a),
  )
  if (!wallet) throw new LatchkeyError('FUNDING_INVALID_DATA', `No wallet ${address} on this user`)
  return wallet.chainType
}

/** Spec 03 §5's checks, then the request the funding screens draw. */
export async function fundWalletRequest(
  instance: LatchkeyInstance,
  address: string,
  options: FundWalletOptions,
): Promise<FundWalletRequest> {
  const { status, user } = instance.client.session.getState()
  if (status !== 'authenticated' || !user) {
    if (status === 'unauthenticated') instance.openLogin()
    throw new LatchkeyError('NOT_AUTHENTICATED')
  }
  const chainType = fundedWallet(user, address)
  if (!instance.getUiState().appConfig) await instance.loadAppConfig()
  const { appConfig, hostConfig } = instance.getUiState()
  // Spec 03 §8: without the app's settings there is no funding config to read.
  if (!appConfig) throw new LatchkeyError('FUNDING_CONFIG_NOT_FOUND')
  const config = appConfig.funding_config
  const asset = options.asset ?? config?.default_recommended_asset ?? 'native-currency'
  const { chains, defaultChain } = appChains(hostConfig)
  // The app's own chain object for that id: its RPC URL is the one balances are read from.
  const chain = options.chain
    ? (chains.find((c) => c.id === options.chain?.id) ?? options.chain)
    : defaultChain
  const clusters = appSolanaClusters(hostConfig)
  const cluster = options.cluster
    ? {
        ...(clusters.find((c) => c.name === options.cluster?.name) ?? {}),
        ...options.cluster,
      }
    : clusters[0]
  const fundingOptions = resolveFundingOptions({
    config,
    chainType,
    ...(chainType === 'ethereum' ? { chainId: chain.id } : { cluster: cluster?.name }),
    asset: typeof asset === 'object' ? 'native-currency' : asset,
    hostChainIds: chains.map((c) => c.id),
  } as Parameters<typeof resolveFundingOptions>[0]).filter(
    (option) =>
      // The on-ramps sell the native currency and USDC only, not any ERC-20.
      !(typeof asset === 'object' && option.provider !== null),
  )
  const target =
    chainType === 'ethereum'
      ? ({ chainType, chain } as const)
      : ({ chainType, cluster: cluster as SolanaCluster } as const)
  const amount = options.amount ?? config?.default_recommended_amount ?? '0'
  const ops = await operations()
  return {
    screen: 'fund-wallet',
    chainType,
    address,
    walletName: appConfig.name,
    network: ops.networkName(target),
    amount,
    options: fundingOptions,
    ...(options.defaultFundingMethod ? { defaultFundingMethod: options.defaultFundingMethod } : {}),
    ...(options.card?.preferredProvider
      ? { preferredCardProvider: options.card.preferredProvider }
      : {}),
    uiConfig: options.uiConfig ?? {},
    ...ops.fundWalletOperations(instance, { address, target, asset, amount, config }),
  }
}
