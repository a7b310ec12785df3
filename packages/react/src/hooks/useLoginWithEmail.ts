import { createEmailFlow, type EmailFlowState } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../store.ts'
import { useCodeLogin } from './useCodeLogin.ts'
import { useResolvedConfig } from './useResolvedConfig.ts'

export interface UseLoginWithEmailParameters {
  onComplete?(result: LoginResult): void
  onError?(code: ErrorCode): void
}

export interface UseLoginWithEmailReturnType {
  /** The email flow's state: initial → sending-code → awaiting-code-input → submitting-code → done | error. */
  state: EmailFlowState
  /**
   * Sends a code. Resolves when the flow has moved on; failures land in
   * `state` and `onError`. `captchaToken`: a token the app solved itself
   * (docs/captcha.md "Headless mode"; or mount `useCaptcha`).
   */
  sendCode(parameters: {
    email: string
    disableSignup?: boolean
    captchaToken?: string
  }): Promise<void>
  /** Submits the 6-digit code and, when it is right, logs the user in. */
  loginWithCode(parameters: { code: string }): Promise<void>
}

/**
 * Email-code login for apps that draw their own UI: core's email flow, wired
 * to React state.
 *
 * @example
 * const { state, sendCode, loginWithCode } = useLoginWithEmail({ onComplete: ({ user }) => … })
 * await sendCode({ email })
 * await loginWithCode({ code })
 */
export function useLoginWithEmail(
  parameters: UseLoginWithEmailParameters = {},
): UseLoginWithEmailReturnType {
  const instance = useLatchkeyInstance()
  const { disablePlusEmails } = useResolvedConfig(instance)
  // A flow's options are fixed when it is made; other options need a new flow.
  const create = useCallback(
    (disableSignup: boolean) =>
      createEmailFlow(instance.client, {
        disablePlusEmails,
        intent: { type: 'login', disableSignup },
      }),
    [instance, disablePlusEmails],
  )
  return useCodeLogin<EmailFlowState, 'email'>(parameters, {
    method: 'email',
    key: 'email',
    create,
    variant: String(disablePlusEmails),
  })
}
