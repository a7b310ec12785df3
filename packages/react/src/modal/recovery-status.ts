import type { RecoveryMethod } from '@latchkey/protocol/schemas'

/**
 * What a wallet's recovery method means for the user, in the words of the
 * "Why is this necessary?" panel of 'Secure your account' / 'Update backup
 * method' (spec 02). `null` is a wallet with no recovery yet: the only state
 * in which losing the device loses the wallet. Automatic recovery is
 * recoverable (the server holds the recovery key); a password or a cloud
 * backup makes the recovery the user's own.
 */
export const recoveryStatusText: Record<RecoveryMethod | 'none', string> = {
  latchkey:
    "Your wallet is recoverable now: log in on a new device and it is restored automatically, because this app's server holds its recovery key. A password or a cloud backup makes recovery yours alone.",
  'user-passcode':
    'Your wallet is protected by your password: log in on a new device and enter it to restore your wallet. Without the password, a new device cannot restore it.',
  'google-drive':
    'Your wallet is backed up to Google Drive: log in on a new device and choose the Google account that holds the backup to restore it.',
  icloud:
    'Your wallet is backed up to iCloud: log in on a new device and use the Apple account that holds the backup to restore it.',
  none: 'Without a backup, losing this device means losing your wallet. A password or a cloud backup lets you restore it on a new device, and only you can.',
}

/** The panel text for a wallet's current method (null: no recovery yet). */
export const recoveryStatusOf = (method: RecoveryMethod | null): string =>
  recoveryStatusText[method ?? 'none']
