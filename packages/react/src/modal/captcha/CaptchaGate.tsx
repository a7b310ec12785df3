import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useUiState } from '../../context.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { CaptchaScreen } from './CaptchaScreen.tsx'
import { captchaFor, enterCaptchaScope } from './index.ts'
import { CaptchaScreenContext } from './scope.ts'

/** Spec 01 §4: after success the screen continues by itself after about 1 s. */
export const CAPTCHA_SUCCESS_SHOW_MS = 1_000

/**
 * The modal's side of the captcha (docs/captcha.md): while the login flow is
 * open its start calls get tokens (a captcha scope). On the screens that
 * need it (scope.ts: the landing, and those that send a code or start a
 * login) it auto-executes 500 ms after the screen shows and solves again
 * after each token is used; elsewhere nothing runs ahead. Closing resets
 * the captcha. When a login start waits for a token the visible captcha
 * screen replaces the flow (kept mounted underneath); it stays on an error
 * with Retry, and shows Success for about 1 s.
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
  // What the login flow's current screen says (useCaptchaScreen).
  const [screenNeeds, setScreenNeeds] = useState(false)
  const active = open && appConfig?.captcha_enabled === true

  useEffect(() => {
    if (!active) return
    const leave = enterCaptchaScope(instance)
    return () => {
      leave()
      captcha.setPrefetch(false)
      captcha.reset()
      setPhase('hidden')
    }
  }, [active, captcha, instance])

  useEffect(() => {
    if (!active) return
    captcha.setPrefetch(screenNeeds)
    if (screenNeeds) captcha.scheduleExecute()
    // Off those screens nothing runs ahead; a token in hand is dropped once no screen shows the captcha.
    else if (phase === 'hidden' && !captcha.getState().waiting) captcha.reset()
  }, [active, captcha, screenNeeds, phase])

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
        <CaptchaScreenContext.Provider value={setScreenNeeds}>
          {children}
        </CaptchaScreenContext.Provider>
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
