import { routes } from '@latchkey/protocol/routes'
import type { AuthMode, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { type LatchkeyError, toLatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'
import { loginRequest } from './login-request.ts'

export interface LoginWithCustomJwtReturnType {
  user: User
  isNewUser: boolean
}

/**
 * Exchanges a JWT of the app's own auth system for a Latchkey session (the
 * server checks it against the app's JWKS or public key, issuer and audience).
 */
export async function loginWithCustomJwt(
  client: LatchkeyClient,
  { token, mode = 'login-or-sign-up' }: { token: string; mode?: AuthMode },
): Promise<LoginWithCustomJwtReturnType> {
  const response = await loginRequest(client, routes.customJwtAuthenticate, { token, mode })
  const user = client.session.applyAuthResponse(response)
  return { user, isNewUser: response.is_new_user }
}

/** Links the app's own account (the subject of `token`) to the logged-in user. */
export async function linkCustomJwt(
  client: LatchkeyClient,
  { token }: { token: string },
): Promise<User> {
  const user = toUser(await client.authedRequest<UserWire>(routes.customJwtLink, { token }))
  client.session.setUser(user)
  return user
}

/** Custom-auth sync states (spec 01 §3): initial, loading, done, error, not-enabled. */
export type CustomAuthState =
  | { status: 'initial' }
  | { status: 'not-enabled' }
  | { status: 'loading' }
  | { status: 'done'; authenticated: boolean }
  | { status: 'error'; error: LatchkeyError }

export interface CustomAuthOptions {
  /** Off: nothing is exchanged and the state is `not-enabled`. */
  enabled: boolean
  /** The host's auth is still working out whether someone is logged in. */
  isLoading: boolean
  /** The host's current JWT, or null/undefined when nobody is logged in there. */
  getCustomAccessToken(): Promise<string | null | undefined>
}

export interface CustomAuthSync {
  getState(): CustomAuthState
  subscribe(listener: () => void): () => void
  /**
   * Brings the Latchkey session in line with the host's auth; call it when
   * the host's state changes (isLoading, enabled, a login or a logout).
   * Concurrent calls are folded into one run after the current one. Never throws.
   */
  sync(options?: Partial<CustomAuthOptions>): Promise<void>
}

/**
 * Keeps Latchkey logged in as the host's user (spec 01 §4 custom auth): when
 * the host's auth is logged in, its token is exchanged for a session (again
 * whenever the token changes); when it logs out, Latchkey logs out too.
 *
 * @example
 * const sync = createCustomAuthSync(client, { enabled: true, isLoading: false, getCustomAccessToken: () => auth.getIdToken() })
 * await sync.sync()
 * auth.onChange(() => sync.sync())
 */
export function createCustomAuthSync(
  client: LatchkeyClient,
  initial: CustomAuthOptions,
): CustomAuthSync {
  let options = initial
  const listeners = new Set<() => void>()
  let state: CustomAuthState = { status: 'initial' }
  // The token the current Latchkey session came from.
  let exchanged: string | null = null
  let running: Promise<void> | null = null
  let again = false
  const set = (next: CustomAuthState) => {
    // An unchanged state is not news: hooks re-sync on every render of a
    // host that passes a new function each time, and must not loop.
    if (
      next.status !== 'error' &&
      next.status === state.status &&
      (next.status !== 'done' || next.authenticated === (state as typeof next).authenticated)
    )
      return
    state = next
    for (const listener of listeners) listener()
  }

  async function run(): Promise<void> {
    if (!options.enabled) {
      set({ status: 'not-enabled' })
      return
    }
    if (options.isLoading) {
      set({ status: 'loading' })
      return
    }
    try {
      if (state.status === 'initial') set({ status: 'loading' })
      const token = (await options.getCustomAccessToken()) ?? null
      const session = client.session.getState()
      if (!token) {
        // The host logged out: so does Latchkey.
        if (session.status === 'authenticated') {
          set({ status: 'loading' })
          await client.session.logout()
        }
        exchanged = null
        set({ status: 'done', authenticated: false })
        return
      }
      if (token !== exchanged || session.status !== 'authenticated') {
        set({ status: 'loading' })
        await loginWithCustomJwt(client, { token })
        exchanged = token
      }
      set({ status: 'done', authenticated: true })
    } catch (error) {
      set({ status: 'error', error: toLatchkeyError(error) })
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async sync(next) {
      if (next) options = { ...options, ...next }
      if (running) {
        again = true
        return running
      }
      running = (async () => {
        do {
          again = false
          await run()
        } while (again)
      })().finally(() => {
        running = null
      })
      return running
    },
  }
}
