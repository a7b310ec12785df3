import { createEmailFlow, type EmailFlow, type EmailFlowState } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../store.ts'
import { useResolvedConfig } from './useResolvedConfig.ts'

interface FlowEntry {
  flow: EmailFlow
  key: string
}

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
  const callbacks = useRef(parameters)
  useEffect(() => {
    callbacks.current = parameters
  })

  // A flow's options are fixed when it is made; other options need a new flow.
  const create = useCallback(
    (disableSignup: boolean): FlowEntry => ({
      flow: createEmailFlow(instance.client, {
        disablePlusEmails,
        intent: { type: 'login', disableSignup },
      }),
      key: `${disableSignup}|${disablePlusEmails}`,
    }),
    [instance, disablePlusEmails],
  )
  const [flow, setFlow] = useState<FlowEntry>(() => create(false))
  const current = useRef(flow)
  current.current = flow
  const state = useSyncExternalStore(flow.flow.subscribe, flow.flow.getState, flow.flow.getState)

  const report = useCallback((next: EmailFlowState) => {
    if (next.status === 'error') callbacks.current.onError?.(next.error.code)
    if (next.status === 'done')
      callbacks.current.onComplete?.({
        user: next.user,
        isNewUser: next.isNewUser,
        wasAlreadyAuthenticated: false,
        loginMethod: 'email',
      })
  }, [])

  const sendCode = useCallback(
    async ({
      email,
      disableSignup = false,
      captchaToken,
    }: {
      email: string
      disableSignup?: boolean
      captchaToken?: string
    }) => {
      let entry = current.current
      if (entry.key !== `${disableSignup}|${disablePlusEmails}`) {
        entry = create(disableSignup)
        current.current = entry
        setFlow(entry)
      }
      await entry.flow.sendCode(email, captchaToken)
      report(entry.flow.getState())
    },
    [create, disablePlusEmails, report],
  )

  const loginWithCode = useCallback(
    async ({ code }: { code: string }) => {
      const { flow: active } = current.current
      await active.submitCode(code)
      report(active.getState())
    },
    [report],
  )

  return { state, sendCode, loginWithCode }
}
