import type { CrossAppPopup, LoginMethod, OAuthReturn, TelegramProof } from '@latchkey/core'
import type { WalletChainType } from '@latchkey/core/external'

// The login data a `login()` call carries, in a file that imports nothing of
// the package: the config, the instance and the store all name it.

/** "Login data" of spec 01 §3: what a `login()` call may ask of the modal. */
export interface LoginOptions {
  /** Pre-fills the email input, or the phone input (E.164). */
  prefill?: { type: 'email' | 'phone'; value: string }
  /** Restrict this login to existing users (mode `no-signup`). */
  disableSignup?: boolean
  /**
   * Link a method to the logged-in user (`openLink`), or replace their email
   * or phone (`openUpdate`), instead of logging in. 'connect-or-create'
   * (spec 01 §4): a login with wallets first, where a wallet login uses that
   * wallet and any other login ends with an embedded wallet (created for
   * users without one, whatever `createOnLogin` says).
   */
  intent?: 'login' | 'link' | 'update' | 'connect-or-create'
  /** Intent 'update': the address or number being replaced. */
  current?: string
  /** Open straight on this method's input or screen. */
  method?: 'email' | 'sms' | 'wallet' | 'farcaster' | 'passkey'
  /** With method 'wallet': open straight on this wallet's connection (its slug, e.g. 'metamask'). */
  wallet?: string
  /** The login methods this login offers, in order, instead of the app's (spec 01 §3 "Login data"). */
  loginMethods?: LoginMethod[]
  /** The connect-only wallet modal (no login): see `openConnectWallet`. */
  connectOnly?: boolean
  /** Which external wallets to list (overrides `appearance.walletChainType`). */
  walletChainType?: WalletChainType
  /** A login that left the page (OAuth, Telegram) and came back to be finished in the modal. */
  resume?: ResumedLogin
  /**
   * Open straight on the cross-app login with provider app `appId`
   * (`useCrossAppAccounts().loginWithCrossAppAccount`), its popup opened in the click.
   */
  crossApp?: { appId: string; popup: CrossAppPopup | null }
}

/** A redirect login back on the page: what the modal finishes. */
export type ResumedLogin =
  | { kind: 'oauth'; ret: OAuthReturn }
  | { kind: 'telegram'; proof: TelegramProof; intent: 'login' | 'link'; disableSignup: boolean }
