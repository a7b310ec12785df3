import type { User } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginOptions } from '../store.ts'
import { useSession } from './useSession.ts'

export interface UseLatchkeyReturnType {
  /** False until the stored session has been checked. */
  ready: boolean
  authenticated: boolean
  user: User | null
  /** Opens the login modal. A no-op with a warning while a (non-guest) user is logged in. */
  login(options?: LoginOptions): void
  /** Ends the session on the server and locally. */
  logout(): Promise<void>
  /** A valid access token (refreshed when needed), or null when logged out. */
  getAccessToken(): Promise<string | null>
}

/**
 * The session and the login/logout actions.
 *
 * @example
 * const { ready, authenticated, user, login, logout } = useLatchkey()
 * if (!ready) return <Spinner />
 * return authenticated ? <button onClick={logout}>Log out</button> : <button onClick={() => login()}>Log in</button>
 */
export function useLatchkey(): UseLatchkeyReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance
  const session = useSession(client)
  const login = useCallback(
    (options?: LoginOptions) => void instance.openLogin(options),
    [instance],
  )
  const logout = useCallback(() => client.session.logout(), [client])
  const getAccessToken = useCallback(() => client.session.getAccessToken(), [client])
  return {
    ready: session.status !== 'loading',
    authenticated: session.status === 'authenticated',
    user: session.user,
    login,
    logout,
    getAccessToken,
  }
}
