import { useMemo } from 'react'
import { type ResolvedConfig, resolveConfig } from '../config.ts'
import { useUiState } from '../context.ts'
import type { LatchkeyInstance } from '../store.ts'

/** Host configuration merged over the server's, recomputed only when either changes. */
export function useResolvedConfig(instance: LatchkeyInstance): ResolvedConfig {
  const { hostConfig, appConfig } = useUiState(instance)
  return useMemo(() => resolveConfig(hostConfig, appConfig), [hostConfig, appConfig])
}
