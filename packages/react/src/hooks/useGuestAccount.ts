import { type LoginAsGuestReturnType, loginAsGuest } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'

export interface UseGuestAccountReturnType {
  /**
   * Logs in as this browser's guest (made on first use, kept in local
   * storage). Rejects with ALREADY_LOGGED_IN while a non-guest user is logged
   * in. A guest keeps its user id when it later links a login method.
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
  const { client } = useLatchkeyInstance()
  const createGuestAccount = useCallback(() => loginAsGuest(client), [client])
  return { createGuestAccount }
}
