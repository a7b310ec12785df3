import { LatchkeyError } from '@latchkey/core'
import { type Chain, formatUnits } from 'viem'
import type { FundWalletRequest } from '../modal/funding/request.ts'
import type { SolanaCluster } from '../solana-clusters.ts'
import type { LatchkeyInstance } from '../store.ts'
import { fundWalletRequest } from './useFundWallet.ts'

/** The chain a transaction is on, which 'Add funds' funds. */
export type TransactionFundingTarget =
  | { chainType: 'ethereum'; chain: Chain }
  | { chainType: 'solana'; cluster: SolanaCluster }

/** SOL's decimals: lamports to SOL. */
const SOL_DECIMALS = 9

/**
 * 'Add funds' of the confirm screens (spec 03 §4 "Ethereum transaction": "If
 * funds are missing and funding is enabled, the button becomes 'Add funds'
 * and opens the funding chooser with amount = value plus gas estimate").
 * Present when the app has funding on (`funding_config` with an option);
 * absent, the confirm screen disables Approve with 'Add funds on {chain} to
 * complete transaction.'. A click builds the funding request for this wallet
 * and chain in the native currency, `comingFromSendTransactionScreen` (spec
 * 03 §3); when the app's settings now offer nothing for this chain (funding
 * turned off since, or no method serves it) it fails with
 * FUNDING_METHOD_NOT_ENABLED, 'Funding wallet is not enabled' (spec 03 §8).
 *
 * @example
 * const request = { ...rest, ...transactionFunding(instance, wallet.address, { chainType: 'ethereum', chain }) }
 */
export function transactionFunding(
  instance: LatchkeyInstance,
  address: string,
  target: TransactionFundingTarget,
): { addFunds?: (amount: bigint) => Promise<FundWalletRequest> } {
  const config = instance.getUiState().appConfig?.funding_config
  if (!config || config.options.length === 0) return {}
  const decimals =
    target.chainType === 'ethereum' ? target.chain.nativeCurrency.decimals : SOL_DECIMALS
  return {
    async addFunds(amount) {
      const request = await fundWalletRequest(instance, address, {
        ...(target.chainType === 'ethereum'
          ? { chain: target.chain }
          : { cluster: target.cluster }),
        amount: formatUnits(amount, decimals),
        asset: 'native-currency',
      }).catch((error: unknown) => {
        if (error instanceof LatchkeyError && error.code === 'FUNDING_NOT_ENABLED')
          throw new LatchkeyError('FUNDING_METHOD_NOT_ENABLED', undefined, { cause: error })
        throw error
      })
      if (request.options.length === 0) throw new LatchkeyError('FUNDING_METHOD_NOT_ENABLED')
      return { ...request, comingFromSendTransactionScreen: true }
    },
  }
}
