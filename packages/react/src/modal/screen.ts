import type {
  AccountTransferInput,
  CrossAppPopup,
  LoginMethod,
  OAuthReturn,
  TelegramProof,
  User,
} from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { AccountTransferOffer, OAuthProvider } from '@latchkey/protocol/schemas'
import type { OAuthFailure } from './methods/oauth/OAuthLogin.tsx'

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
  | { screen: 'oauth'; provider: OAuthProvider; ret: OAuthReturn | null; startError?: OAuthFailure }
  | { screen: 'in-app-browser' }
  | { screen: 'telegram'; proof: TelegramProof | null }
  /**
   * `walletId`: straight on that wallet's connection (a landing row, a
   * connector hint); `walletList`: the wallets to list instead of the app's.
   */
  | { screen: 'wallet'; walletId?: string; walletList?: string[] }
  | { screen: 'farcaster' }
  /** Passkey login, sign-up or link: the choice screen, then the status screen. */
  | { screen: 'passkey' }
  /** Cross-app login (docs/cross-app.md): the provider's popup, opened in the landing click. */
  | { screen: 'cross-app'; appId: string; popup: CrossAppPopup | null }
  | {
      screen: 'success'
      user: User
      isNewUser: boolean
      loginMethod: LoginMethod
      /** Wallet and cross-app logins: the wallet's (app's) name, for 'Successfully connected with {name}'. */
      label?: string
    }
  /** `serverMessage`: the server's own words where spec 01 §8 shows them (ErrorScreen). */
  | { screen: 'error'; code: ErrorCode; serverMessage?: string }
  | { screen: 'account-not-found' }
  // Spec 02 "Allowlist and limit screens".
  | { screen: 'allowlist-rejected' }
  | { screen: 'user-limit' }
  /** Spec 02 "Terms consent": the post-login step before wallet creation. */
  | { screen: 'terms'; user: User; isNewUser: boolean; loginMethod: LoginMethod }
  /** Spec 02 "Account transfer": a link met an account that can move here. */
  | {
      screen: 'account-transfer'
      offer: AccountTransferOffer
      /** The account as the transfer call names it. */
      account: AccountTransferInput
      loginMethod: LoginMethod
    }
  | {
      screen: 'wallet-creation'
      user: User
      isNewUser: boolean
      loginMethod: LoginMethod
      chains: Array<'ethereum' | 'solana'>
    }

export type ScreenName = Screen['screen']
