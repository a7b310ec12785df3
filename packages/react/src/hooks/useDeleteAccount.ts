import { deleteAccount as deleteAccountOf, embeddedWallets, LatchkeyError } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { DeleteAccountRequest } from '../wallet-requests.ts'
import { isUserRejection } from './signing.ts'
import { useExportWallet } from './useExportWallet.ts'

export type { DeleteAccountRequest }

export interface UseDeleteAccountReturnType {
  deleteAccount(): Promise<void>
}

/**
 * Opens the account-deletion screen in the modal. 'Delete account' deletes
 * the user's account, linked accounts and embedded wallets for good and ends
 * every session of theirs; the screen says 'Account deleted', the modal
 * closes 1 s later and the user is logged out. Resolves then. A failure is
 * shown on the screen (the buttons come back); closing the screen after a
 * failed attempt rejects with that LatchkeyError, closing it before any
 * attempt (Cancel, Escape, or 'Export wallet', which opens the export screen
 * instead) rejects with ACCOUNT_DELETION_EXITED. Closing it while the
 * deletion runs waits for the deletion's outcome.
 *
 * @example
 * const { deleteAccount } = useDeleteAccount()
 * try { await deleteAccount() } catch (error) { if (error.code !== 'ACCOUNT_DELETION_EXITED') … }
 */
export function useDeleteAccount(): UseDeleteAccountReturnType {
  const instance = useLatchkeyInstance()
  const { exportWallet } = useExportWallet()
  const deleteAccount = useCallback(async () => {
    const { status, user } = instance.client.session.getState()
    if (status !== 'authenticated' || !user) throw new LatchkeyError('NOT_AUTHENTICATED')
    const [wallet] = embeddedWallets(user)
    let attempt: Promise<void> | undefined
    const request: DeleteAccountRequest = {
      screen: 'delete-account',
      hasEmbeddedWallet: wallet !== undefined,
      deleteAccount: () => {
        attempt = deleteAccountOf(instance.client)
        return attempt
      },
      ...(wallet && {
        exportWallet: () => exportWallet({ address: wallet.address, chainType: wallet.chainType }),
      }),
    }
    try {
      await instance.openWalletScreen<void>(request)
    } catch (error) {
      // Closed while deleting, or after a failure: the last attempt's outcome is the answer.
      if (attempt) return await attempt
      throw isUserRejection(error) ? new LatchkeyError('ACCOUNT_DELETION_EXITED') : error
    }
  }, [instance, exportWallet])
  return { deleteAccount }
}
