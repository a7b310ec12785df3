import type { CrossAppLoginReturnType, CrossAppPopup } from '@latchkey/core'
import type { CrossAppDetails } from '@latchkey/protocol/schemas'

/**
 * The cross-app login screen (spec 03 §2, §4 "Cross-app auth"): `run` is core
 * `loginWithCrossApp` with a popup opened in the user's click (the first one
 * by the hook, a Retry's by the screen). Resolves with the login.
 */
export interface CrossAppLoginRequest {
  screen: 'cross-app'
  providerAppId: string
  /** The popup the hook opened within the click; used by the first attempt. */
  popup: CrossAppPopup | null
  run(
    popup: CrossAppPopup | null,
    onConnecting: (details: CrossAppDetails) => void,
  ): Promise<CrossAppLoginReturnType>
}
