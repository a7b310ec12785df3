import { LatchkeyError } from '@latchkey/core'
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
 * Makes an embedded wallet usable on this device. A wallet already here
 * resolves at once, with no screen; otherwise the connect-wallet screen (spec
 * 03 "Connect wallet") recovers it: automatically for automatic recovery,
 * with 'Enter your password' for a password (spec 02), or 'Recover with
 * {provider}' for a cloud backup (the page then leaves for the consent).
 * Closing it rejects with EMBEDDED_WALLET_CONNECT_EXITED ('User exited before
 * wallet could be connected') or RECOVERY_EXITED; a failure shows 'Something
 * went wrong. We’re on it. Please try again later.' and rejects with its
 * cause once closed. Logged out (the login modal opens) or without an
 * embedded wallet it rejects with RECOVER_NOT_AUTHENTICATED ('User must be
 * authenticated and have a Latchkey wallet before it can be recovered').
 * Signing hooks do this by themselves; call it before using a wallet's
 * provider directly.
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
      const { entropyId } = recoveringWallet(instance, chainType, address)
      await ensureRecovered(instance, entropyId)
    },
    [instance],
  )
  return { recoverWallet }
}

/**
 * `signingWallet`, with spec 03 §8's wording when there is nothing to
 * recover: logged out (the login modal opens) or no embedded wallet at all.
 */
function recoveringWallet(...args: Parameters<typeof signingWallet>) {
  try {
    return signingWallet(...args)
  } catch (error) {
    const address = args[2]
    if (
      error instanceof LatchkeyError &&
      (error.code === 'NOT_AUTHENTICATED' || (error.code === 'WALLET_NOT_FOUND' && !address))
    )
      throw new LatchkeyError('RECOVER_NOT_AUTHENTICATED', undefined, { cause: error })
    throw error
  }
}
