import { createContext, useContext, useSyncExternalStore } from 'react'
import type { LatchkeyInstance, UiState } from './store.ts'

export const LatchkeyContext = createContext<LatchkeyInstance | null>(null)

/** The provider's stable instance; throws outside `LatchkeyProvider`. */
export function useLatchkeyInstance(): LatchkeyInstance {
  const instance = useContext(LatchkeyContext)
  if (!instance) throw new Error('Latchkey hooks must be used inside <LatchkeyProvider>.')
  return instance
}

/** The React layer's UI state (modal open, app configuration). */
export function useUiState(instance: LatchkeyInstance): UiState {
  return useSyncExternalStore(instance.subscribeUi, instance.getUiState, instance.getUiState)
}
