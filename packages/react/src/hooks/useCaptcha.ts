import type { CaptchaState } from '@latchkey/core'
import { useEffect, useSyncExternalStore } from 'react'
import { useLatchkeyInstance, useUiState } from '../context.ts'
import { captchaFor, enterCaptchaScope } from '../modal/captcha/index.ts'

export interface UseCaptchaReturnType {
  /**
   * disabled (the app has no captcha) | ready | loading | success | error;
   * `error` is a catalogue code, `exhausted` once the 3 retries failed,
   * `waiting` while a login start waits for a token.
   */
  state: CaptchaState
  /** Solves again now (after an error). */
  retry(): void
}

/**
 * The captcha for apps that draw their own login screens (docs/captcha.md
 * "Headless mode"). Headless hooks (`useLoginWithEmail`, `useLoginWithSms`,
 * `useLoginWithOAuth`, passkeys, wallets…) run no captcha by themselves
 * (spec 01 §2). Mount this hook on the screen where the user starts a login:
 * while it is mounted, Latchkey's invisible captcha solves 500 ms after
 * mount and again after each token is used, and those hooks' start calls
 * carry its tokens. Unmounting resets it. Does nothing for an app without
 * captcha.
 *
 * @example
 * function EmailLogin() {
 *   const { state: captcha } = useCaptcha()
 *   const { sendCode } = useLoginWithEmail()
 *   return <button disabled={captcha.status === 'error'} onClick={() => sendCode({ email })}>Send code</button>
 * }
 */
export function useCaptcha(): UseCaptchaReturnType {
  const instance = useLatchkeyInstance()
  const enabled = useUiState(instance).appConfig?.captcha_enabled === true
  // Re-read on every render: a new app configuration gives a new controller.
  const captcha = captchaFor(instance)
  const state = useSyncExternalStore(captcha.subscribe, captcha.getState, captcha.getState)

  useEffect(() => {
    if (!enabled) return
    const leave = enterCaptchaScope(instance)
    captcha.setPrefetch(true)
    captcha.scheduleExecute()
    return () => {
      leave()
      captcha.setPrefetch(false)
      captcha.reset()
    }
  }, [enabled, captcha, instance])

  return { state, retry: () => captcha.execute() }
}
