import {
  initOAuth,
  LatchkeyError,
  type LoginMethod,
  redirectToTelegram,
  type User,
  unlinkEmail,
  unlinkFarcaster,
  unlinkOAuth,
  unlinkPasskey,
  unlinkPhone,
  unlinkTelegram,
  unlinkWallet,
} from '@latchkey/core'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { useMemo } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { useResolvedConfig } from './useResolvedConfig.ts'

export interface UseLinkAccountReturnType {
  /** The login methods the app offers (the modal's list), so a UI can offer to link them. */
  methods: LoginMethod[]
  /** Opens the modal on the email input; the code links the address to the logged-in user. */
  linkEmail(): void
  /** Opens the modal on the phone input; the code links the number. */
  linkPhone(): void
  /**
   * Leaves for the provider; back on this page the modal shows 'Verifying
   * connection to {provider}' and links the account. One account per provider.
   */
  linkOAuth(provider: OAuthProvider): Promise<void>
  /** Leaves for Telegram's login page; back on this page the modal links the account. */
  linkTelegram(): void
  /**
   * Opens the modal to replace `current` (default: the user's address): the
   * code goes to the new one. A user without an email address cannot update
   * it: throws NO_EMAIL_TO_UPDATE ('User is required to have an email
   * address to update it.').
   */
  updateEmail(current?: string): void
  /**
   * Opens the modal to replace the user's phone number `current` (E.164;
   * default: the user's number). Throws NO_PHONE_TO_UPDATE for a user
   * without one.
   */
  updatePhone(current?: string): void
  /** Unlinks an email address (the user must keep one login method). */
  unlinkEmail(address: string): Promise<User>
  /** Unlinks a phone number (E.164). */
  unlinkPhone(phoneNumber: string): Promise<User>
  /** Unlinks a social account by provider and the provider's subject. */
  unlinkOAuth(provider: OAuthProvider, subject: string): Promise<User>
  /** Unlinks a Telegram account. */
  unlinkTelegram(telegramUserId: string): Promise<User>
  /**
   * Opens the modal on the wallet list: the picked wallet signs a SIWE/SIWS
   * message that links it. An address on another user fails with 'User
   * already exists for this address'.
   */
  linkWallet(): void
  /** Unlinks an external wallet (embedded wallets cannot be unlinked). */
  unlinkWallet(address: string, chainType?: 'ethereum' | 'solana'): Promise<User>
  /** Opens the modal on Farcaster's QR code; approving in the Farcaster app links the fid. */
  linkFarcaster(): void
  /** Unlinks the Farcaster account `fid`. */
  unlinkFarcaster(fid: number): Promise<User>
  /**
   * Opens the modal on the passkey status screen: the browser's prompt creates
   * a new passkey for the logged-in user (up to 5; a sixth is refused with
   * 'Cannot link more passkeys to account.').
   */
  linkPasskey(): void
  /** Unlinks a passkey by credential id ('Cannot unlink a passkey enrolled in MFA' while it is an MFA method). */
  unlinkPasskey(credentialId: string): Promise<User>
}

/**
 * Link and unlink login methods of the logged-in user (spec 01 "Login intent:
 * link"). Email and phone open the modal on their input; social providers and
 * Telegram leave for the provider and finish in the modal on return. An
 * identity already on another user fails with 'This account has already been
 * linked to another user.'; unlinking the last login method is refused. The
 * session's user updates either way.
 *
 * @example
 * const { linkEmail, linkOAuth, unlinkEmail } = useLinkAccount()
 * <button onClick={() => linkOAuth('google')}>Link Google</button>
 */
export function useLinkAccount(): UseLinkAccountReturnType {
  const instance = useLatchkeyInstance()
  const { loginMethods: methods } = useResolvedConfig(instance)
  const actions = useMemo((): Omit<UseLinkAccountReturnType, 'methods'> => {
    const { client } = instance
    const requireUser = () => {
      if (client.session.getState().status !== 'authenticated')
        throw new LatchkeyError('NOT_AUTHENTICATED')
    }
    return {
      linkEmail: () => instance.openLink({ method: 'email' }),
      linkPhone: () => instance.openLink({ method: 'sms' }),
      // Spec 02 §5: 'The user must already have an email'; likewise a phone.
      updateEmail: (current) => {
        requireUser()
        const address = client.session.getState().user?.email?.address
        if (!address) throw new LatchkeyError('NO_EMAIL_TO_UPDATE')
        instance.openUpdate({ method: 'email', current: current ?? address })
      },
      updatePhone: (current) => {
        requireUser()
        const number = client.session.getState().user?.phone?.number
        if (!number) throw new LatchkeyError('NO_PHONE_TO_UPDATE')
        instance.openUpdate({ method: 'sms', current: current ?? number })
      },
      linkOAuth: async (provider) => {
        requireUser()
        await initOAuth(client, { provider, intent: 'link', ui: 'modal' })
      },
      linkTelegram: () => {
        requireUser()
        const telegram = instance.getUiState().appConfig?.telegram_auth_config
        if (!telegram) throw new LatchkeyError('TELEGRAM_NOT_ALLOWED')
        redirectToTelegram(client, { botId: telegram.bot_id, intent: 'link', ui: 'modal' })
      },
      unlinkEmail: (address) => unlinkEmail(client, { address }),
      unlinkPhone: (phoneNumber) => unlinkPhone(client, { phoneNumber }),
      unlinkOAuth: (provider, subject) => unlinkOAuth(client, { provider, subject }),
      unlinkTelegram: (telegramUserId) => unlinkTelegram(client, { telegramUserId }),
      linkWallet: () => instance.openLink({ method: 'wallet' }),
      unlinkWallet: (address, chainType) =>
        unlinkWallet(client, {
          address,
          chainType: chainType ?? (address.startsWith('0x') ? 'ethereum' : 'solana'),
        }),
      linkFarcaster: () => instance.openLink({ method: 'farcaster' }),
      unlinkFarcaster: (fid) => unlinkFarcaster(client, { fid }),
      linkPasskey: () => instance.openLink({ method: 'passkey' }),
      unlinkPasskey: (credentialId) => unlinkPasskey(client, { credentialId }),
    }
  }, [instance])
  return useMemo(() => ({ methods, ...actions }), [methods, actions])
}
