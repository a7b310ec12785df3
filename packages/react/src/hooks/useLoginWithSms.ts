import { createSmsFlow, type SmsFlowState } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../store.ts'
import { useCodeLogin } from './useCodeLogin.ts'

export interface UseLoginWithSmsParameters {
  onComplete?(result: LoginResult): void
  onError?(code: ErrorCode): void
}

export interface UseLoginWithSmsReturnType {
  /**
   * The SMS flow's state: initial → sending-code → awaiting-code-input →
   * submitting-code → done | error. `channel` says whether the code went by
   * SMS or WhatsApp (the app's `whatsapp_enabled`).
   */
  state: SmsFlowState
  /**
   * Sends a code to `phoneNumber` (E.164, e.g. '+14155552671'). Resolves when
   * the flow has moved on; failures land in `state` and `onError`.
   * `captchaToken`: a token the app solved itself (docs/captcha.md "Headless
   * mode"; or mount `useCaptcha`).
   */
  sendCode(parameters: {
    phoneNumber: string
    disableSignup?: boolean
    captchaToken?: string
  }): Promise<void>
  /** Submits the 6-digit code and, when it is right, logs the user in. */
  loginWithCode(parameters: { code: string }): Promise<void>
}

/**
 * SMS/WhatsApp-code login for apps that draw their own UI: core's SMS flow,
 * wired to React state.
 *
 * @example
 * const { state, sendCode, loginWithCode } = useLoginWithSms({ onComplete: ({ user }) => … })
 * await sendCode({ phoneNumber: '+14155552671' })
 * await loginWithCode({ code })
 */
export function useLoginWithSms(
  parameters: UseLoginWithSmsParameters = {},
): UseLoginWithSmsReturnType {
  const instance = useLatchkeyInstance()
  // A flow's intent is fixed when it is made; another disableSignup needs a new flow.
  const create = useCallback(
    (disableSignup: boolean) =>
      createSmsFlow(instance.client, { intent: { type: 'login', disableSignup } }),
    [instance],
  )
  return useCodeLogin<SmsFlowState, 'phoneNumber'>(parameters, {
    method: 'sms',
    key: 'phoneNumber',
    create,
    variant: '',
  })
}
