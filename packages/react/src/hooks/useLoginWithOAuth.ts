import { completeOAuth, initOAuth, LatchkeyError, takeOAuthReturn } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { OAuthProvider } from '@latchkey/protocol/schemas'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../store.ts'

export interface UseLoginWithOAuthParameters {
  onComplete?(result: LoginResult): void
  onError?(code: ErrorCode): void
}

/** initial → loading (leaving for the provider, or verifying its return) → done | error. */
export interface OAuthLoginState {
  status: 'initial' | 'loading' | 'done' | 'error'
  /** The provider of the flow under way or just finished. */
  provider: OAuthProvider | null
  error: LatchkeyError | null
}

export interface UseLoginWithOAuthReturnType {
  state: OAuthLoginState
  /**
   * Sends the browser to the provider; the login completes on return (this
   * hook finishes it when mounted on the return page). Failures before
   * leaving land in `state` and `onError`. An app with captcha enabled
   * passes the token it solved (docs/captcha.md "Headless mode").
   */
  initOAuth(parameters: InitOAuthWithHookParameters): Promise<void>
}

export interface InitOAuthWithHookParameters {
  provider: OAuthProvider
  /** Refuse unknown users (mode `no-signup`). */
  disableSignup?: boolean
  /** A captcha token the app solved itself; headless hooks run no captcha of their own. */
  captchaToken?: string
}

/**
 * Social (OAuth) login for apps that draw their own UI: core's OAuth flow
 * wired to React state. On mount it finishes a provider's return started by
 * the app, or one this tab has no pending login for (spec 01 §2: code, state
 * and provider are read and removed; the latter ends in
 * OAUTH_LOGIN_EXPIRED).
 *
 * @example
 * const { state, initOAuth } = useLoginWithOAuth({ onComplete: ({ user }) => … })
 * <button onClick={() => initOAuth({ provider: 'google' })}>Google</button>
 */
export function useLoginWithOAuth(
  parameters: UseLoginWithOAuthParameters = {},
): UseLoginWithOAuthReturnType {
  const instance = useLatchkeyInstance()
  const callbacks = useRef(parameters)
  useEffect(() => {
    callbacks.current = parameters
  })
  const [state, setState] = useState<OAuthLoginState>({
    status: 'initial',
    provider: null,
    error: null,
  })

  const fail = useCallback((provider: OAuthProvider, error: unknown) => {
    const e =
      error instanceof LatchkeyError
        ? error
        : new LatchkeyError('INTERNAL_ERROR', undefined, { cause: error })
    setState({ status: 'error', provider, error: e })
    callbacks.current.onError?.(e.code)
  }, [])

  // A provider's return: finished once per page load (the parameters are removed when read).
  useEffect(() => {
    const ret = takeOAuthReturn(instance.client, { ui: 'app' })
    if (!ret) return
    setState({ status: 'loading', provider: ret.provider, error: null })
    completeOAuth(instance.client, ret).then(
      (done) => {
        setState({ status: 'done', provider: done.provider, error: null })
        callbacks.current.onComplete?.({
          user: done.user,
          isNewUser: done.isNewUser,
          wasAlreadyAuthenticated: false,
          loginMethod: done.provider,
        })
      },
      (error) => fail(ret.provider, error),
    )
  }, [instance, fail])

  const start = useCallback(
    async ({ provider, disableSignup, captchaToken }: InitOAuthWithHookParameters) => {
      setState({ status: 'loading', provider, error: null })
      try {
        await initOAuth(instance.client, { provider, disableSignup, captchaToken })
      } catch (error) {
        fail(provider, error)
      }
    },
    [instance, fail],
  )

  return { state, initOAuth: start }
}
