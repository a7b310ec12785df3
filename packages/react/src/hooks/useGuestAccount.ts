import { type LoginAsGuestReturnType, loginAsGuest } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { createWalletsAfterLogin } from '../create-on-login.ts'

export interface UseGuestAccountReturnType {
  /**
   * Logs in as this browser's guest (made on first use, kept in local
   * storage). Rejects with ALREADY_LOGGED_IN while a non-guest user is logged
   * in. A guest keeps its user id when it later links a login method. Then,
   * as after any login, the wallets `embeddedWallets.createOnLogin` asks for
   * are created in the modal (guests included, spec 02); it resolves once
   * logged in, without waiting for them.
   */
  createGuestAccount(): Promise<LoginAsGuestReturnType>
}

/**
 * Guest accounts: a user without a login method, kept by a random credential
 * in this browser's storage.
 *
 * @example
 * const { createGuestAccount } = useGuestAccount()
 * const { user } = await createGuestAccount() // user.isGuest === true
 */
export function useGuestAccount(): UseGuestAccountReturnType {
  const instance = useLatchkeyInstance()
  const createGuestAccount = useCallback(async () => {
    const login = await loginAsGuest(instance.client)
    // The modal shows how the wallet step ends (a failure logs the guest out).
    createWalletsAfterLogin(instance, login).catch(() => {})
    return login
  }, [instance])
  return { createGuestAccount }
}
