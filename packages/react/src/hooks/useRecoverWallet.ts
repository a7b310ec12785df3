import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { ensureRecovered, signingWallet } from './signing.ts'

export interface RecoverWalletOptions {
  /** Which embedded wallet. Default: the user's first wallet on the chain. */
  address?: string
  /** Default 'ethereum'. */
  chainType?: 'ethereum' | 'solana'
}

export interface UseRecoverWalletReturnType {
  recoverWallet(options?: RecoverWalletOptions): Promise<void>
}

/**
 * Makes an embedded wallet usable on this device. A wallet with automatic
 * recovery (or one already here) resolves at once; a password-protected one
 * on a new device opens 'Enter your password' first (spec 02). Signing hooks
 * do this by themselves; call it before using a wallet's provider directly.
 *
 * @example
 * const { recoverWallet } = useRecoverWallet()
 * await recoverWallet()
 * const signature = await wallets[0].getEthereumProvider().request({ method: 'personal_sign', params })
 */
export function useRecoverWallet(): UseRecoverWalletReturnType {
  const instance = useLatchkeyInstance()
  const recoverWallet = useCallback(
    async ({ address, chainType = 'ethereum' }: RecoverWalletOptions = {}) => {
      const { entropyId } = signingWallet(instance, chainType, address)
      await ensureRecovered(instance, entropyId)
    },
    [instance],
  )
  return { recoverWallet }
}
