import { useEffect, useReducer } from 'react'

/**
 * Whole seconds left until `until` (epoch ms, rounded up), re-rendering as
 * each one passes; 0 once it has passed, or when there is none. A countdown
 * of 30 s reads 30 at once, 1 at 29.999 s, and 0 at exactly 30 s.
 *
 * @example
 * const left = useSecondsLeft(state.resendAt)
 * <button disabled={left > 0}>{left > 0 ? `Resend code in ${left}s` : 'Resend code'}</button>
 */
export function useSecondsLeft(until: number | null | undefined): number {
  const [, tick] = useReducer((n: number) => n + 1, 0)
  const left = until ? Math.max(0, until - Date.now()) : 0
  // After every render: wake when the shown number next changes.
  useEffect(() => {
    if (left <= 0) return
    const timer = setTimeout(tick, left % 1000 || 1000)
    return () => clearTimeout(timer)
  })
  return Math.ceil(left / 1000)
}
