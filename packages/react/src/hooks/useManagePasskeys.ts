import {
  LatchkeyError,
  linkPasskey,
  PASSKEY_LIMIT,
  type PasskeyAccount,
  unlinkPasskey,
} from '@latchkey/core'
import { useCallback, useMemo } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { useSession } from './useSession.ts'

export interface UseManagePasskeysReturnType {
  /** The logged-in user's passkeys (empty when logged out). */
  passkeys: PasskeyAccount[]
  /** Whether another passkey may be linked (at most 5 per user). */
  canAddPasskey: boolean
  /**
   * Opens the modal's passkey management screen (spec 02 "Passkey
   * management"): the list, unlink, 'Add new passkey', Done. Resolves when the
   * user closes it, whatever they changed; the session's user follows.
   */
  managePasskeys(): Promise<void>
}

/**
 * The logged-in user's passkeys and the modal screen that manages them. For
 * a UI of your own, `linkPasskey()` / `unlinkPasskey()` of `useLinkAccount`
 * do single steps.
 *
 * @example
 * const { passkeys, managePasskeys } = useManagePasskeys()
 * <button onClick={() => managePasskeys()}>Passkeys ({passkeys.length})</button>
 */
export function useManagePasskeys(): UseManagePasskeysReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const { user } = useSession(client)
  const passkeys = useMemo(
    () =>
      (user?.linkedAccounts ?? []).filter(
        (account): account is PasskeyAccount => account.type === 'passkey',
      ),
    [user],
  )
  const managePasskeys = useCallback(async () => {
    const current = client.session.getState().user
    if (!current) throw new LatchkeyError('NOT_AUTHENTICATED')
    await instance
      .openWalletScreen<void>({
        screen: 'passkeys',
        passkeys: current.linkedAccounts.filter(
          (account): account is PasskeyAccount => account.type === 'passkey',
        ),
        link: () => linkPasskey(client),
        unlink: (credentialId) => unlinkPasskey(client, { credentialId }),
      })
      // Closing the screen is how the user finishes; nothing to report.
      .catch(() => {})
  }, [client, instance])
  return { passkeys, canAddPasskey: passkeys.length < PASSKEY_LIMIT, managePasskeys }
}
