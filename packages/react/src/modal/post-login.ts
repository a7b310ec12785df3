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
 * EXTENSION POINT: the terms screen (spec 02 "Terms consent") and wallet
 * creation come in later issues; each adds its step to this list, in that
 * order, and its screen to the `Screen` union.
 */
export const postLoginSteps: PostLoginStep[] = [
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
