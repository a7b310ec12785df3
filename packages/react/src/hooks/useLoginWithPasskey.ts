import { createPasskeyFlow, type PasskeyFlow, type PasskeyFlowState } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../store.ts'

export interface UseLoginWithPasskeyParameters {
  onComplete?(result: LoginResult): void
  onError?(code: ErrorCode): void
  /** Log in existing users only (mode `no-signup`). */
  disableSignup?: boolean
}

export interface UseLoginWithPasskeyReturnType {
  /**
   * initial → generating-challenge → awaiting-passkey → submitting-response
   * → done | error (spec 01 §4 "Passkey").
   */
  state: PasskeyFlowState
  /** Opens the browser's passkey prompt and logs in. Failures land in `state` and `onError`. */
  loginWithPasskey(): Promise<void>
  /** Creates a new account with a new passkey. */
  signupWithPasskey(): Promise<void>
  /** Runs the last attempt again after a retryable error. */
  retry(): Promise<void>
  /** Abandons the attempt under way (dismissing the prompt). */
  reset(): void
}

/**
 * Passkey login and sign-up for apps that draw their own UI: core's passkey
 * flow wired to React state. `@simplewebauthn/browser` loads on the first
 * attempt, not with this hook.
 *
 * @example
 * const { state, loginWithPasskey, signupWithPasskey } = useLoginWithPasskey({
 *   onComplete: ({ user }) => console.log(user.id),
 * })
 * <button onClick={loginWithPasskey} disabled={state.status === 'awaiting-passkey'}>Log in with a passkey</button>
 * {state.status === 'error' && <p>{state.error.userMessage.title}</p>}
 */
export function useLoginWithPasskey(
  parameters: UseLoginWithPasskeyParameters = {},
): UseLoginWithPasskeyReturnType {
  const { client } = useLatchkeyInstance()
  const disableSignup = parameters.disableSignup === true
  const callbacks = useRef(parameters)
  useEffect(() => {
    callbacks.current = parameters
  })
  const flow: PasskeyFlow = useMemo(
    () => createPasskeyFlow(client, { disableSignup }),
    [client, disableSignup],
  )
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  useEffect(() => () => flow.reset(), [flow])

  const report = useCallback(() => {
    const next = flow.getState()
    if (next.status === 'error') callbacks.current.onError?.(next.error.code)
    if (next.status === 'done')
      callbacks.current.onComplete?.({
        user: next.user,
        isNewUser: next.isNewUser,
        wasAlreadyAuthenticated: false,
        loginMethod: 'passkey',
      })
  }, [flow])

  const loginWithPasskey = useCallback(async () => {
    await flow.login()
    report()
  }, [flow, report])
  const signupWithPasskey = useCallback(async () => {
    await flow.signup()
    report()
  }, [flow, report])
  const retry = useCallback(async () => {
    await flow.retry()
    report()
  }, [flow, report])

  return { state, loginWithPasskey, signupWithPasskey, retry, reset: flow.reset }
}
