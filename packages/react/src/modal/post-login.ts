import { chainsToCreateOnLogin, type LoginMethod, type User } from '@latchkey/core'
import type { ResolvedConfig } from '../config.ts'
import type { Screen } from './screen.ts'

export interface PostLoginContext {
  user: User
  isNewUser: boolean
  loginMethod: LoginMethod
  config: ResolvedConfig
}

/** One step of the post-login sequence: the screen to show, or null when it has nothing to do. */
export type PostLoginStep = (context: PostLoginContext) => Screen | null

/**
 * The post-login sequence of spec 01 §4 "After any login success": about
 * 0.9 s after the success screen, terms acceptance when the app requires it
 * and the user has not accepted, then embedded-wallet creation when the app
 * asks for it; with nothing to do, the modal closes 1.4 s after success.
 *
 * Every login method reaches it through the flow's success screen. Each
 * step returns its screen or null; a step's screen, once done, asks for the
 * next one again (`nextPostLoginScreen` with the updated user), so accepting
 * the terms moves on to wallet creation. A later step adds itself to this
 * list, in order, and its screen to the `Screen` union.
 */
export const postLoginSteps: PostLoginStep[] = [
  // Terms consent (spec 02): 'One last step' until the user has accepted.
  ({ user, isNewUser, loginMethod, config }) =>
    config.requireUsersAcceptTerms && !user.hasAcceptedTerms
      ? { screen: 'terms', user, isNewUser, loginMethod }
      : null,
  // Embedded-wallet creation (issue 3): Ethereum then Solana, index 0.
  ({ user, isNewUser, loginMethod, config }) => {
    const chains = chainsToCreateOnLogin(user, config.createOnLogin)
    return chains.length > 0
      ? { screen: 'wallet-creation', user, isNewUser, loginMethod, chains }
      : null
  },
]

/** The first post-login screen that applies, or null to close with success. */
export function nextPostLoginScreen(context: PostLoginContext): Screen | null {
  for (const step of postLoginSteps) {
    const screen = step(context)
    if (screen) return screen
  }
  return null
}
