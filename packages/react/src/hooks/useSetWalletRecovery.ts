import { connectEmbeddedWallet, LatchkeyError, setWalletRecovery } from '@latchkey/core'
import { useCallback } from 'react'
import { consentStarter } from '../cloud.ts'
import { resolveConfig } from '../config.ts'
import { useLatchkeyInstance } from '../context.ts'
import type { RecoveryOption, SecureAccountRequest } from '../store.ts'
import { connectWalletStep, isUserRejection, signingWallet } from './signing.ts'

export interface SetWalletRecoveryOptions {
  /** Which embedded wallet's secret. Default: the user's first Ethereum wallet. */
  address?: string
  /** Default 'ethereum'. */
  chainType?: 'ethereum' | 'solana'
}

export interface UseSetWalletRecoveryReturnType {
  setWalletRecovery(options?: SetWalletRecoveryOptions): Promise<void>
}

/**
 * Opens 'Update backup method' (spec 02): back up to Google Drive or iCloud,
 * set or reset a password, or (when the app does not require user-owned
 * recovery) go back to automatic recovery. On a device that does not hold
 * the wallet yet, the connect-wallet screen recovers it first. Resolves when
 * the modal closes after a change; closing it earlier rejects with
 * SET_RECOVERY_EXITED ('User exited set recovery flow', spec 02 §4), which
 * means "the user chose to keep the current method", not a failure: show it
 * as nothing changed (the demo does), never as an error. A cloud choice
 * leaves the page for the provider's consent: the backup then finishes on the
 * progress screen when the user is back, and `useWallets()` shows the new
 * method.
 *
 * @example
 * const { setWalletRecovery } = useSetWalletRecovery()
 * <button onClick={() => setWalletRecovery().catch((e) => {
 *   if (e.code !== 'SET_RECOVERY_EXITED') throw e // closed: nothing changed
 * })}>Backup options</button>
 */
export function useSetWalletRecovery(): UseSetWalletRecoveryReturnType {
  const instance = useLatchkeyInstance()
  const open = useCallback(
    async ({ address, chainType = 'ethereum' }: SetWalletRecoveryOptions = {}) => {
      const wallet = signingWallet(instance, chainType, address)
      const { entropyId } = wallet
      const { hostConfig, appConfig } = instance.getUiState()
      const config = resolveConfig(hostConfig, appConfig)
      const options: RecoveryOption[] = [...config.userOwnedRecoveryOptions]
      if (!config.requireUserOwnedRecoveryOnCreate) options.push('latchkey')
      // Server-wallet-only mode (spec 02 §5): an automatic wallet has nothing else to move to.
      if (config.userOwnedRecoveryOptions.length === 0 && wallet.recoveryMethod === 'latchkey')
        throw new LatchkeyError('USER_OWNED_RECOVERY_UNSUPPORTED')
      // Changing the method on a new device needs the wallet here first (spec 03 "Connect wallet").
      const here = await connectEmbeddedWallet(instance.client, entropyId).then(
        (answer) => answer.status === 'ready',
        () => false,
      )
      const { client } = instance
      const request: SecureAccountRequest = {
        screen: 'secure-account',
        mode: 'update',
        currentMethod: wallet.recoveryMethod,
        options,
        setPassword: (password) =>
          setWalletRecovery(client, { recovery: { method: 'user-passcode', password }, entropyId }),
        setAutomatic: () =>
          setWalletRecovery(client, { recovery: { method: 'latchkey' }, entropyId }),
        startConsent: (provider) =>
          consentStarter(instance, { provider, action: 'set-recovery', entropyId })(),
        connectWallet: here ? undefined : connectWalletStep(instance, entropyId),
      }
      try {
        await instance.openWalletScreen<void>(request)
      } catch (error) {
        throw isUserRejection(error) ? new LatchkeyError('SET_RECOVERY_EXITED') : error
      }
    },
    [instance],
  )
  return { setWalletRecovery: open }
}
