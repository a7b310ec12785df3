import { type User, unlinkEmail, unlinkPhone, unlinkTelegram } from '@latchkey/core'
import { useMemo } from 'react'
import { useLatchkeyInstance } from '../context.ts'

export interface UseLinkAccountReturnType {
  /** Opens the modal on the email input; the code links the address to the logged-in user. */
  linkEmail(): void
  /** Opens the modal on the phone input; the code links the number. */
  linkPhone(): void
  /** Unlinks an email address (the user must keep one login method). */
  unlinkEmail(address: string): Promise<User>
  /** Unlinks a phone number (E.164). */
  unlinkPhone(phoneNumber: string): Promise<User>
  /** Unlinks a Telegram account. */
  unlinkTelegram(telegramUserId: string): Promise<User>
}

/**
 * Link and unlink login methods of the logged-in user (spec 01 "Login intent:
 * link"). Linking opens the modal on the method's input; an identity already
 * on another user fails with 'This account has already been linked to
 * another user.'; unlinking the last login method is refused. The session's
 * user updates either way. OAuth links are `useLoginWithOAuth().linkOAuth`.
 *
 * @example
 * const { linkEmail, unlinkEmail } = useLinkAccount()
 * <button onClick={linkEmail}>Link email</button>
 */
export function useLinkAccount(): UseLinkAccountReturnType {
  const instance = useLatchkeyInstance()
  return useMemo(() => {
    const { client } = instance
    return {
      linkEmail: () => instance.openLink({ method: 'email' }),
      linkPhone: () => instance.openLink({ method: 'sms' }),
      unlinkEmail: (address) => unlinkEmail(client, { address }),
      unlinkPhone: (phoneNumber) => unlinkPhone(client, { phoneNumber }),
      unlinkTelegram: (telegramUserId) => unlinkTelegram(client, { telegramUserId }),
    }
  }, [instance])
}
