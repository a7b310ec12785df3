import type { ErrorCode } from '@latchkey/protocol/errors'
import { WalletAnalyticsEvent } from '../analytics.ts'
import type { LatchkeyClient } from '../client.ts'

/** Where the post-login creation failed: the wallet step's spinner, or the password wizard. */
export type WalletCreationScreenName = 'wallet-creation' | 'set-password'

export interface LogoutAfterCreationFailureParameters {
  /** The failure's code. */
  error: ErrorCode
  /** The screen the user was on when it failed. */
  screen: WalletCreationScreenName
}

/**
 * Spec 02 §4: "A failed creation after login logs the user out (an
 * analytics event embedded_wallet_creation_failure_logout carries error and
 * screen)". Sends the event, then logs out; the logout never fails (it
 * clears the local session even when the server cannot be reached).
 *
 * @example
 * await logoutAfterCreationFailure(client, { error: 'USER_WALLET_CREATION_FAILED', screen: 'wallet-creation' })
 */
export async function logoutAfterCreationFailure(
  client: LatchkeyClient,
  { error, screen }: LogoutAfterCreationFailureParameters,
): Promise<void> {
  client.trackEvent(WalletAnalyticsEvent.creationFailureLogout, { error, screen })
  await client.session.logout()
}
