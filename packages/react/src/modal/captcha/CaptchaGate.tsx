import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useUiState } from '../../context.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { CaptchaScreen } from './CaptchaScreen.tsx'
import { captchaFor } from './index.ts'

/** Spec 01 §4: after success the screen continues by itself after about 1 s. */
export const CAPTCHA_SUCCESS_SHOW_MS = 1_000

/**
 * The modal's side of the captcha (docs/captcha.md): while the modal is open
 * it auto-executes 500 ms after opening and solves again after each token is
 * used; closing it resets the captcha. When a login start waits for a token
 * the visible captcha screen replaces the flow (kept mounted underneath);
 * it stays on an error with Retry, and shows Success for about 1 s.
 */
export function CaptchaGate({
  instance,
  open,
  children,
}: {
  instance: LatchkeyInstance
  open: boolean
  children: ReactNode
}) {
  const { appConfig } = useUiState(instance)
  // Re-read on every render: a new app configuration gives a new controller.
  const captcha = captchaFor(instance)
  const state = useSyncExternalStore(captcha.subscribe, captcha.getState, captcha.getState)
  // 'active': the screen follows the captcha; 'success': Success shows, then the flow returns.
  const [phase, setPhase] = useState<'hidden' | 'active' | 'success'>('hidden')
  const hideTimer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const wasWaiting = useRef(false)

  useEffect(() => {
    if (!open || !appConfig?.captcha_enabled) return
    captcha.setPrefetch(true)
    captcha.scheduleExecute()
    return () => {
      captcha.setPrefetch(false)
      captcha.reset()
      setPhase('hidden')
    }
  }, [open, appConfig?.captcha_enabled, captcha])

  useEffect(() => {
    const justServed = wasWaiting.current && !state.waiting
    wasWaiting.current = state.waiting
    if (state.waiting) {
      if (hideTimer.current) clearTimeout(hideTimer.current)
      hideTimer.current = null
      setPhase('active')
      return
    }
    // The waiting call got its token (or, after Retry, one is ready): Success, then continue.
    if (
      phase === 'active' &&
      state.status !== 'error' &&
      (justServed || state.status === 'success')
    ) {
      setPhase('success')
      hideTimer.current = setTimeout(() => {
        hideTimer.current = null
        setPhase('hidden')
      }, CAPTCHA_SUCCESS_SHOW_MS)
    }
  }, [state.waiting, state.status, phase])

  useEffect(
    () => () => {
      if (hideTimer.current) clearTimeout(hideTimer.current)
    },
    [],
  )

  const shown = phase !== 'hidden'
  return (
    <>
      <div hidden={shown} style={{ display: shown ? 'none' : 'contents' }}>
        {children}
      </div>
      {shown && (
        <CaptchaScreen
          state={phase === 'success' ? { ...state, status: 'success' } : state}
          onRetry={() => captcha.execute()}
        />
      )}
    </>
  )
}
