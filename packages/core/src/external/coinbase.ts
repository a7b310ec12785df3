import { createCoinbaseWalletSDK } from '@coinbase/wallet-sdk'
import type { EIP1193Provider } from './ethereum-discovery.ts'

/**
 * Coinbase Wallet through its SDK (extension, mobile app or smart wallet
 * popup), loaded only when the user picks it.
 */
export async function createCoinbaseProvider(options: {
  appName: string
  appLogoUrl: string | null
  chainIds: number[]
}) {
  const sdk = createCoinbaseWalletSDK({
    appName: options.appName,
    appLogoUrl: options.appLogoUrl,
    appChainIds: options.chainIds,
    preference: { options: 'all' },
  })
  const provider = sdk.getProvider()
  return {
    provider: provider as unknown as EIP1193Provider,
    walletSlug: (): string | null => 'coinbase_wallet',
    disconnect: () => provider.disconnect(),
  }
}
