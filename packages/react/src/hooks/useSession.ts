import type { LatchkeyClient, SessionState } from '@latchkey/core'
import { useSyncExternalStore } from 'react'

/** The session store of core, read with `useSyncExternalStore`. */
export function useSession(client: LatchkeyClient): SessionState {
  const { session } = client
  return useSyncExternalStore(session.subscribe, session.getState, session.getState)
}
