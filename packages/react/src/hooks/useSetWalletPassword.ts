import { LatchkeyError, setRecoveryPassword } from '@latchkey/core'
import { useCallback } from 'react'
import { resolveConfig } from '../config.ts'
import { useLatchkeyInstance } from '../context.ts'
import { ensureRecovered, isUserRejection, signingWallet } from './signing.ts'

export interface SetWalletPasswordOptions {
  /** Which embedded wallet's secret to protect. Default: the user's first Ethereum wallet. */
  address?: string
  /** Default 'ethereum'. */
  chainType?: 'ethereum' | 'solana'
}

export interface UseSetWalletPasswordReturnType {
  setWalletPassword(options?: SetWalletPasswordOptions): Promise<void>
}

/**
 * Opens the password wizard (spec 02: create → save → confirm → finalize →
 * done). 'Set Password' protects the wallet with the password in the enclave
 * (core `setRecoveryPassword`), replacing automatic recovery; the wallet's
 * recovery method becomes `user-passcode`. Resolves when the modal closes
 * after success; closing it earlier rejects with SET_PASSWORD_EXITED ('Exited
 * before password was added to wallet'): the user chose not to set one, so
 * the wallet keeps its recovery. Show that as nothing changed, not an error.
 * An app in server-wallet-only mode (`embeddedWallets.mode`
 * 'user-controlled-server-wallets-only') offers no password: the call rejects
 * with USER_OWNED_RECOVERY_UNSUPPORTED and opens nothing (spec 02 §5).
 *
 * @example
 * const { setWalletPassword } = useSetWalletPassword()
 * await setWalletPassword()
 */
export function useSetWalletPassword(): UseSetWalletPasswordReturnType {
  const instance = useLatchkeyInstance()
  const setWalletPassword = useCallback(
    async ({ address, chainType = 'ethereum' }: SetWalletPasswordOptions = {}) => {
      const { entropyId } = signingWallet(instance, chainType, address)
      const { hostConfig, appConfig } = instance.getUiState()
      if (resolveConfig(hostConfig, appConfig).userOwnedRecoveryOptions.length === 0)
        throw new LatchkeyError('USER_OWNED_RECOVERY_UNSUPPORTED')
      // Changing the password of a protected wallet on a new device needs the old one first.
      await ensureRecovered(instance, entropyId)
      try {
        await instance.openWalletScreen<void>({
          screen: 'set-password',
          setPassword: (password) => setRecoveryPassword(instance.client, { password, entropyId }),
        })
      } catch (error) {
        throw isUserRejection(error) ? new LatchkeyError('SET_PASSWORD_EXITED') : error
      }
    },
    [instance],
  )
  return { setWalletPassword }
}
