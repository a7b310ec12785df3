import type { ConnectedExternalWallet, WalletChainType } from '@latchkey/core/external'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'

/**
 * Opens the connect-only wallet modal (spec 01 "Connect-only wallet
 * screen"): no login, the user just connects an external wallet, which then
 * appears in `useWallets()` / `useSolanaWallets()` and survives reloads.
 * Rejects with WALLET_USER_REJECTED when the modal is closed first.
 *
 * @example
 * const { connectWallet } = useConnectWallet()
 * const wallet = await connectWallet()
 * const provider = wallet.type === 'ethereum' ? wallet.getEthereumProvider() : null
 */
export function useConnectWallet(): {
  connectWallet(options?: { walletChainType?: WalletChainType }): Promise<ConnectedExternalWallet>
} {
  const instance = useLatchkeyInstance()
  return {
    connectWallet: useCallback(
      (options: { walletChainType?: WalletChainType } = {}) => instance.openConnectWallet(options),
      [instance],
    ),
  }
}
