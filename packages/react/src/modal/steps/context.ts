import type { AccountTransferInput, LatchkeyError, LoginMethod, User } from '@latchkey/core'
import type { ReactElement } from 'react'
import type { ResolvedConfig } from '../../config.ts'
import type { LatchkeyInstance, LoginOptions, UiState } from '../../instance.ts'
import type { EmailLogin } from '../methods/email/useEmailLogin.ts'
import type { useSmsLogin } from '../methods/sms/useSmsLogin.tsx'
import type { usePostLogin } from '../post-login.ts'
import type { Screen, ScreenName } from '../screen.ts'

/**
 * What a step of the login flow draws from: the attempt, the methods' state,
 * and the flow's moves. `LoginFlow` makes it once per render; each step only
 * renders its screen with it.
 */
export interface StepContext {
  instance: LatchkeyInstance
  /** The modal's UI state (server and host configuration). */
  ui: UiState
  config: ResolvedConfig
  loginOptions: LoginOptions
  intent: 'login' | 'link' | 'update'
  /** Linking or updating: the user is already logged in. */
  linking: boolean
  disableSignup: boolean
  /** The method this browser last logged in with, for the 'Recent' chip. */
  recentMethod: LoginMethod | null
  email: EmailLogin
  sms: ReturnType<typeof useSmsLogin>
  postLogin: ReturnType<typeof usePostLogin>
  setScreen(screen: Screen): void
  backToLanding(): void
  /** A method's button on the landing screen or in its overflow. */
  chooseMethod(method: LoginMethod): void
  /** A method screen logged in: on to the success screen and post-login steps. */
  loggedIn(loginMethod: LoginMethod): (result: { user: User; isNewUser: boolean }) => void
  /** A method screen's failure: an outcome screen, or the method's own screen shows it. */
  failed(loginMethod: LoginMethod): (error: LatchkeyError, account?: AccountTransferInput) => void
}

/** Draws one screen of the `Screen` union. */
export type StepRenderer<K extends ScreenName> = (
  screen: Extract<Screen, { screen: K }>,
  ctx: StepContext,
) => ReactElement

/** One renderer per screen: the flow's whole set, spread together from the step files. */
export type StepRenderers = { [K in ScreenName]: StepRenderer<K> }
