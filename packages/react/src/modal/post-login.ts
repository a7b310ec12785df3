import {
  acceptTerms,
  chainsToCreateOnLogin,
  type LoginMethod,
  refreshWallets,
  type User,
} from '@latchkey/core'
import { POST_LOGIN_DELAY_MS, SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useEffect, useRef } from 'react'
import type { ResolvedConfig } from '../config.ts'
import type { LatchkeyInstance, LoginResult } from '../instance.ts'
import { isOAuthProvider } from './methods/oauth/providers.tsx'
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
 * asks for it; with nothing to do, the wallets are refreshed and the modal
 * closes 1.4 s after success (or once the refresh is in, if later).
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

export interface UsePostLoginOptions {
  instance: LatchkeyInstance
  config: ResolvedConfig
  screen: Screen
  setScreen(screen: Screen): void
  /** Linking or updating: the user was already logged in, so there is no sequence. */
  linking: boolean
  /** The dialog the flow is in was closed (the standalone panel never is). */
  dismissed: boolean
  /** The login is complete and the sequence has nothing more to show. */
  onFinished(result: LoginResult): void
}

/**
 * Runs the sequence for the flow: from the success screen on to the first
 * step that applies, or closes with success; and the terms screen's answers.
 * `finish` ends the attempt with the latest `onFinished`.
 */
export function usePostLogin(options: UsePostLoginOptions) {
  const { instance, config, screen, setScreen, linking, dismissed } = options
  const { client } = instance
  const finished = useRef(options.onFinished)
  finished.current = options.onFinished
  const finish = (result: LoginResult) => finished.current(result)

  // Spec 02 "Terms consent": 'No thanks' — or closing the dialog on that screen — logs the
  // user out; `useLogin`'s onError gets TERMS_DECLINED.
  const termsSettled = useRef(false)
  const declineTerms = () => {
    if (termsSettled.current) return
    termsSettled.current = true
    instance.emitLoginEvent({ type: 'error', code: 'TERMS_DECLINED' })
    void client.session.logout().catch(() => undefined)
    setScreen({ screen: 'landing' })
    instance.closeModal()
  }
  useEffect(() => {
    if (dismissed && screen.screen === 'terms') declineTerms()
  })

  // Spec 02 §4: "Closing without success reports failure ('User exited set recovery flow'
  // for the recovery flow)": the wallet step says what closing it now means.
  const walletStepExit = useRef<ErrorCode | null>(null)
  const setWalletStepExit = (code: ErrorCode | null) => {
    walletStepExit.current = code
  }
  useEffect(() => {
    const code = walletStepExit.current
    if (!dismissed || screen.screen !== 'wallet-creation' || !code) return
    walletStepExit.current = null
    instance.emitLoginEvent({ type: 'error', code })
  })

  /** Accept: record it, then the rest of the post-login sequence, else close with success. */
  const acceptAndContinue = async (step: Extract<Screen, { screen: 'terms' }>) => {
    const user = await acceptTerms(client)
    const next = nextPostLoginScreen({ ...step, user, config })
    if (next) return setScreen(next)
    // The modal closes on the terms screen: that is no decline.
    termsSettled.current = true
    finished.current({
      user,
      isNewUser: step.isNewUser,
      loginMethod: step.loginMethod,
      wasAlreadyAuthenticated: false,
    })
  }

  // Spec 01 §4 "After any login success": the post-login steps, else close 1.4 s after success.
  useEffect(() => {
    if (screen.screen !== 'success') return
    const { user, isNewUser, loginMethod } = screen
    // A link has no post-login sequence: the user was already logged in.
    const next = linking ? null : nextPostLoginScreen({ user, isNewUser, loginMethod, config })
    if (next) {
      // Spec 01 §4: the sequence starts 1.4 s after a social login's or a wallet's success.
      const delay =
        isOAuthProvider(loginMethod) || loginMethod === 'wallet' || loginMethod === 'cross_app'
          ? SUCCESS_CLOSE_DELAY_MS
          : POST_LOGIN_DELAY_MS
      const timer = setTimeout(() => setScreen(next), delay)
      return () => clearTimeout(timer)
    }
    // Spec 01 §4 "else refresh wallets and close with success after 1.4 s": the wallet
    // list is the server's before the modal closes; a failed refresh keeps the login's.
    let cancelled = false
    const refreshed: Promise<User> = linking
      ? Promise.resolve(user)
      : refreshWallets(client).then(
          () => client.session.getState().user ?? user,
          () => user,
        )
    const timer = setTimeout(() => {
      void refreshed.then((fresh) => {
        if (cancelled) return
        finished.current({ user: fresh, isNewUser, loginMethod, wasAlreadyAuthenticated: linking })
      })
    }, SUCCESS_CLOSE_DELAY_MS)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [screen, config, linking, setScreen, client])

  return { finish, acceptAndContinue, declineTerms, setWalletStepExit }
}
