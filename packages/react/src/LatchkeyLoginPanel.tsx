import { useMemo } from 'react'
import { useLatchkeyInstance } from './context.ts'
import { LazyLoginPanel } from './modal/lazy.tsx'
import type { LoginOptions } from './store.ts'

export interface LatchkeyLoginPanelProps extends LoginOptions {
  /** Extra class on the panel's root, for the host's layout. */
  className?: string
}

/**
 * The login screens embedded in the page instead of a dialog (standalone
 * mode). Loaded on demand; `useLogin`'s callbacks fire when a login through it
 * completes.
 *
 * @example
 * <LatchkeyLoginPanel disableSignup />
 */
export function LatchkeyLoginPanel({ className, prefill, disableSignup }: LatchkeyLoginPanelProps) {
  const instance = useLatchkeyInstance()
  const prefillValue = prefill?.value
  const loginOptions = useMemo<LoginOptions>(
    () => ({
      ...(prefillValue !== undefined ? { prefill: { type: 'email', value: prefillValue } } : {}),
      ...(disableSignup !== undefined ? { disableSignup } : {}),
    }),
    [prefillValue, disableSignup],
  )
  return <LazyLoginPanel instance={instance} loginOptions={loginOptions} className={className} />
}
