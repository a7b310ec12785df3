import { ensureMfaVerified, LatchkeyError, WalletAnalyticsEvent } from '@latchkey/core'
import { CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { connectWalletStep, signingWallet } from './signing.ts'
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
 * The host app never receives the key. The connect-wallet loader comes
 * first, for at least 1 s (spec 03 §4), and recovers the wallet on a new
 * device (password or cloud consent). Resolves when the modal closes.
 * Logged out it opens the login modal and rejects with
 * EXPORT_NOT_AUTHENTICATED ('User must be authenticated before exporting
 * their wallet', spec 03 §8). The first copy sends the
 * `embedded_wallet_key_export_completed` analytics event (spec 03 §7).
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
      const wallet = exportingWallet(instance, chainType, address)
      const accessToken = await instance.client.session.getAccessToken()
      if (!accessToken) throw new LatchkeyError('EXPORT_NOT_AUTHENTICATED')
      const { client } = instance
      // The export page reads the auth share itself: with MFA, verify first (docs/mfa.md).
      await ensureMfaVerified(client)
      let exported = false
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
          // Spec 03 §4: the connect-wallet loader first, at least 1 s: the export page
          // rebuilds the key from this device's share, recovered there if need be.
          connectWallet: connectWalletStep(instance, wallet.entropyId, {
            minimumDisplayMs: CONNECT_WALLET_MIN_DISPLAY_FROM_EXPORT_MS,
          }),
          onCopied: (what) => {
            if (exported) return
            exported = true
            client.trackEvent(WalletAnalyticsEvent.keyExportCompleted, {
              chainType,
              exported: what,
            })
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

/** `signingWallet`, with spec 03 §8's export wording for a logged-out user. */
function exportingWallet(...args: Parameters<typeof signingWallet>) {
  try {
    return signingWallet(...args)
  } catch (error) {
    if (error instanceof LatchkeyError && error.code === 'NOT_AUTHENTICATED')
      throw new LatchkeyError('EXPORT_NOT_AUTHENTICATED')
    throw error
  }
}
