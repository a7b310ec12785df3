import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback, useEffect, useRef } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginOptions, LoginResult } from '../store.ts'

export interface UseLoginParameters {
  /** After a login through the modal completes (and the modal has closed). */
  onComplete?(result: LoginResult): void
  /** When a login attempt in the modal fails, with the error's code. */
  onError?(code: ErrorCode): void
}

export interface UseLoginReturnType {
  login(options?: LoginOptions): void
}

/**
 * `login()` with callbacks. When a user is already logged in, `login()` opens
 * nothing and calls `onComplete` with `wasAlreadyAuthenticated: true`.
 * `login()` takes the login data of spec 01 §3: `prefill`, `disableSignup`,
 * `walletChainType` and `loginMethods` (this login's methods, instead of the
 * app's), and `intent: 'connect-or-create'` (wallets first; any other login
 * ends with an embedded wallet).
 *
 * @example
 * const { login } = useLogin({ onComplete: ({ user, isNewUser }) => track(user.id, isNewUser) })
 * login({ loginMethods: ['email', 'google'], prefill: { type: 'email', value: 'ada@example.com' } })
 */
export function useLogin(parameters: UseLoginParameters = {}): UseLoginReturnType {
  const instance = useLatchkeyInstance()
  const callbacks = useRef(parameters)
  useEffect(() => {
    callbacks.current = parameters
  })
  useEffect(
    () =>
      instance.onLoginEvent((event) => {
        if (event.type === 'complete') callbacks.current.onComplete?.(event.result)
        else callbacks.current.onError?.(event.code)
      }),
    [instance],
  )
  const login = useCallback(
    (options?: LoginOptions) => {
      if (instance.openLogin(options) === 'opened') return
      const { user } = instance.client.session.getState()
      if (user)
        callbacks.current.onComplete?.({
          user,
          isNewUser: false,
          wasAlreadyAuthenticated: true,
          loginMethod: null,
        })
    },
    [instance],
  )
  return { login }
}
