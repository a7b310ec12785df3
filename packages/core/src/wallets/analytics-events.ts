/**
 * Wallet analytics events (spec 03 §7). Payloads carry no address or user id:
 * the event route is unauthenticated, so an event must not tie a browser's
 * analytics id to a wallet.
 */
export const WalletAnalyticsEvent = {
  /** The export page reported the first copy of a key: `{ chainType, exported }`. */
  keyExportCompleted: 'embedded_wallet_key_export_completed',
  /** An automatic-recovery wallet starts recovering on this device: `{}`. */
  pinlessRecoveryStarted: 'embedded_wallet_pinless_recovery_started',
  /** Any recovery on this device succeeded: `{ recoveryMethod }`. */
  recoveryCompleted: 'embedded_wallet_recovery_completed',
  /**
   * A failed post-login creation logged the user out (spec 02 §4):
   * `{ error, screen }`, the error's code and the screen it failed on.
   */
  creationFailureLogout: 'embedded_wallet_creation_failure_logout',
} as const
