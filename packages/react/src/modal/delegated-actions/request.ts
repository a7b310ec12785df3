import type { User } from '@latchkey/core'

/** Spec 03 §4, §9 "Success auto-close": 2.5 s (delegation), after success or error. */
export const DELEGATION_CLOSE_DELAY_MS = 2_500

/**
 * Spec 03 §2 "Delegated actions", §3 "Delegated consent: address,
 * onDelegate. Revoke: onRevoke.": the consent screen ('Enable offline
 * access', 'Not now' / 'Accept') and the revoke screen ('Revoke offline
 * access to wallet', 'Deny' / 'Confirm'). `onDelegate` is core
 * `delegateWallet`, `onRevoke` core `revokeWallets`; each resolves with the
 * updated user. Closing the screen (or the decline button) rejects the hook's
 * promise with DELEGATION_DECLINED / DELEGATION_REVOKE_DECLINED.
 */
export type DelegatedActionsRequest = {
  /** The host app's name (app config), named in the screen's text. */
  appName: string | null
} & (
  | {
      screen: 'delegate-wallet'
      /** The wallet to delegate, as the user's account lists it. */
      address: string
      chainType: 'ethereum' | 'solana'
      onDelegate(): Promise<User>
    }
  | { screen: 'revoke-wallets'; onRevoke(): Promise<User> }
)
