import { type CustomAuthOptions, type CustomAuthState, createCustomAuthSync } from '@latchkey/core'
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import { useLatchkeyInstance } from '../context.ts'

export type UseCustomAuthParameters = CustomAuthOptions

export interface UseCustomAuthReturnType {
  /** initial, loading, done, error or not-enabled (spec 01 §3 "Custom-auth sync"). */
  state: CustomAuthState
}

/**
 * Keeps Latchkey logged in as the user of the app's own auth system: while
 * that system is logged in, its JWT is exchanged for a Latchkey session
 * (again when the token changes); when it logs out, Latchkey logs out. Mount
 * it once, under LatchkeyProvider. Every change of `enabled`, `isLoading` or
 * the identity of `getCustomAccessToken` re-syncs (memoize the function with
 * useCallback so it changes only when the host's user does; an inline one
 * works, but is called on every render).
 *
 * @example
 * const { isLoading, getIdToken } = useMyAuth()
 * useCustomAuth({ enabled: true, isLoading, getCustomAccessToken: getIdToken })
 */
export function useCustomAuth(parameters: UseCustomAuthParameters): UseCustomAuthReturnType {
  const { client } = useLatchkeyInstance()
  const latest = useRef(parameters)
  latest.current = parameters
  const sync = useMemo(
    () =>
      createCustomAuthSync(client, {
        enabled: latest.current.enabled,
        isLoading: latest.current.isLoading,
        // Always the host's current function, whatever render it came from.
        getCustomAccessToken: () => latest.current.getCustomAccessToken(),
      }),
    [client],
  )
  const state = useSyncExternalStore(sync.subscribe, sync.getState, sync.getState)
  const { enabled, isLoading, getCustomAccessToken } = parameters
  // A new getCustomAccessToken identity is how hosts signal a login or logout.
  // biome-ignore lint/correctness/useExhaustiveDependencies: getCustomAccessToken is read through the ref; its identity only triggers a sync
  useEffect(() => {
    void sync.sync({ enabled, isLoading })
  }, [sync, enabled, isLoading, getCustomAccessToken])
  return { state }
}
