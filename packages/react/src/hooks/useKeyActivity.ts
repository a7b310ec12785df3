import {
  type KeyRelease,
  type LatchkeyError,
  listKeyActivity,
  toLatchkeyError,
} from '@latchkey/core'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { useSession } from './useSession.ts'

export interface UseKeyActivityParameters {
  /** Newest releases to fetch: 1 to 100 (default 20). */
  limit?: number
}

export interface UseKeyActivityReturnType {
  /** The logged-in user's key releases, newest first (empty when logged out). */
  activity: KeyRelease[]
  /** A fetch is in flight. */
  loading: boolean
  /** The last fetch's failure, cleared by the next success. */
  error: LatchkeyError | null
  /** Fetches the list again (e.g. after a signature). */
  refresh(): Promise<void>
}

interface State {
  activity: KeyRelease[]
  loading: boolean
  error: LatchkeyError | null
}

/**
 * The logged-in user's key activity (`listKeyActivity` of core): when the
 * server released the auth share (signing, export) or the recovery material
 * to one of their sessions, and from where. Fetched when a user logs in (or
 * changes), emptied on logout; `refresh()` fetches again.
 *
 * @example
 * const { activity, loading, error, refresh } = useKeyActivity({ limit: 10 })
 * activity.map((r) => <li key={r.id}>{r.kind} {r.createdAt.toLocaleString()} {r.ip}</li>)
 */
export function useKeyActivity(
  parameters: UseKeyActivityParameters = {},
): UseKeyActivityReturnType {
  const { client } = useLatchkeyInstance()
  const userId = useSession(client).user?.id ?? null
  const { limit } = parameters
  const [state, setState] = useState<State>({
    activity: [],
    loading: userId !== null,
    error: null,
  })
  // Only the latest fetch may set state: a logout or a newer refresh wins.
  const latest = useRef(0)

  const refresh = useCallback(async () => {
    const request = ++latest.current
    if (!client.session.getState().user) {
      setState({ activity: [], loading: false, error: null })
      return
    }
    setState((current) => ({ ...current, loading: true }))
    try {
      const { activity } = await listKeyActivity(client, { limit })
      if (request === latest.current) setState({ activity, loading: false, error: null })
    } catch (error) {
      if (request === latest.current)
        setState((current) => ({ ...current, loading: false, error: toLatchkeyError(error) }))
    }
  }, [client, limit])

  // biome-ignore lint/correctness/useExhaustiveDependencies: userId is the trigger: a login, logout or another user fetches again
  useEffect(() => {
    void refresh()
  }, [refresh, userId])

  return { ...state, refresh }
}
