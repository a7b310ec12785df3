import type { LoginMethod } from '@latchkey/core'
import { useMemo } from 'react'
import { type ResolvedConfig, resolveConfig, resolveLoginConfig } from '../config.ts'
import { useUiState } from '../context.ts'
import type { LoginOptions } from '../instance.ts'
import type { LatchkeyInstance } from '../store.ts'

/** Host configuration merged over the server's, recomputed only when either changes. */
export function useResolvedConfig(instance: LatchkeyInstance): ResolvedConfig {
  const { hostConfig, appConfig } = useUiState(instance)
  return useMemo(() => resolveConfig(hostConfig, appConfig), [hostConfig, appConfig])
}

/**
 * The configuration of one login in the modal: `login()`'s own login data
 * applied (`resolveLoginConfig`), with the method the user logged in with
 * once the flow knows it.
 */
export function useLoginConfig(
  instance: LatchkeyInstance,
  loginOptions: LoginOptions,
  loginMethod: LoginMethod | null,
): ResolvedConfig {
  const { hostConfig, appConfig } = useUiState(instance)
  // Only connect-or-create reads the method: otherwise one object for the whole attempt.
  const method = loginOptions.intent === 'connect-or-create' ? loginMethod : null
  return useMemo(
    () => resolveLoginConfig(hostConfig, appConfig, loginOptions, method),
    [hostConfig, appConfig, loginOptions, method],
  )
}
