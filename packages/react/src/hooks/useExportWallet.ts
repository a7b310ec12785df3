import { LatchkeyError } from '@latchkey/core'
import { routes } from '@latchkey/protocol/routes'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { ensureRecovered, signingWallet } from './signing.ts'
import { useResolvedConfig } from './useResolvedConfig.ts'

export interface ExportWalletOptions {
  /** Which embedded wallet. Default: the user's first wallet on the chain. */
  address?: string
  /** Default 'ethereum'. */
  chainType?: 'ethereum' | 'solana'
}

/**
 * Opens the export screen: the enclave's export page inside the modal shows
 * the private key (and, for HD wallets, the seed phrase) with copy buttons.
 * The host app never receives the key. Resolves when the modal closes.
 *
 * @example
 * const { exportWallet } = useExportWallet()
 * await exportWallet()
 */
export function useExportWallet(): { exportWallet(options?: ExportWalletOptions): Promise<void> } {
  const instance = useLatchkeyInstance()
  const { theme } = useResolvedConfig(instance)
  const exportWallet = useCallback(
    async ({ address, chainType = 'ethereum' }: ExportWalletOptions = {}) => {
      const wallet = signingWallet(instance, chainType, address)
      // The export page rebuilds the key from this device's share.
      await ensureRecovered(instance, wallet.entropyId)
      const accessToken = await instance.client.session.getAccessToken()
      if (!accessToken) throw new LatchkeyError('NOT_AUTHENTICATED')
      const { client } = instance
      const url = `${client.apiUrl.replace(/\/+$/, '')}${routes.enclavePage(client.appId)}/export`
      await instance
        .openWalletScreen({
          screen: 'export-wallet',
          url,
          init: {
            access_token: accessToken,
            entropy_id: wallet.entropyId,
            chain_type: chainType,
            wallet_index: wallet.walletIndex,
            theme,
          },
        })
        .catch((error: unknown) => {
          // Closing the export screen is how it ends, not a failure.
          if (error instanceof Error && (error as { code?: unknown }).code === 4001) return
          throw error
        })
    },
    [instance, theme],
  )
  return { exportWallet }
}
