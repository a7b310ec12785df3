import type { LoginMethod, User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'

/**
 * The screens the login modal can show, one member per screen file under
 * `screens/`. Later login methods and post-login steps add members here.
 */
export type Screen =
  | { screen: 'landing' }
  | { screen: 'more-options'; title: string; methods: LoginMethod[] }
  | { screen: 'email-entry' }
  | { screen: 'sms-entry' }
  | { screen: 'sms-code'; phoneNumber: string; channel: 'sms' | 'whatsapp' }
  | { screen: 'email-code'; email: string }
  | { screen: 'success'; user: User; isNewUser: boolean; loginMethod: LoginMethod }
  | { screen: 'error'; code: ErrorCode }
  | { screen: 'account-not-found' }
  | {
      screen: 'wallet-creation'
      user: User
      isNewUser: boolean
      loginMethod: LoginMethod
      chains: Array<'ethereum' | 'solana'>
    }

export type ScreenName = Screen['screen']
