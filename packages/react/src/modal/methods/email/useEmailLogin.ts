import { createEmailFlow, type LatchkeyClient, type LatchkeyError, type User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useMemo, useState, useSyncExternalStore } from 'react'

// Send failures the user fixes on the email input itself (spec 01 §5); others get the error screen.
const INLINE_EMAIL_SEND_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_EMAIL',
  'PLUS_EMAIL_NOT_ALLOWED',
  'INVALID_PAYLOAD',
  'TOO_MANY_REQUESTS',
  'RESEND_COOLDOWN',
])

export interface UseEmailLoginOptions {
  client: LatchkeyClient
  disablePlusEmails: boolean
  /** Log in, link, or replace the user's address. */
  intent: 'login' | 'link' | 'update'
  /** Intent 'update': the address being replaced. */
  current?: string
  /** Intent 'login': existing users only (mode `no-signup`). */
  disableSignup: boolean
  /** `prefill` of type email. */
  prefill?: string
  /** A code is on its way: show the code screen. */
  onCodeSent(email: string): void
  onDone(result: { user: User; isNewUser: boolean }): void
  /** A failure the email input cannot show: the flow decides the screen. */
  onFailure(error: LatchkeyError, step: 'send' | 'resend' | 'submit', email: string): void
}

/**
 * The modal's email login (core's email flow): the email input with its
 * inline errors, and the code screen's resend and submit. The flow component
 * only places the input and moves between screens.
 */
export function useEmailLogin(options: UseEmailLoginOptions) {
  const { client, disablePlusEmails, intent, current, disableSignup } = options
  const flow = useMemo(
    () =>
      createEmailFlow(client, {
        disablePlusEmails,
        intent:
          intent === 'update'
            ? { type: 'update', oldAddress: current ?? '' }
            : intent === 'link'
              ? { type: 'link' }
              : { type: 'login', disableSignup },
      }),
    [client, disablePlusEmails, disableSignup, intent, current],
  )
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const [sendError, setSendError] = useState<ErrorCode | null>(null)
  const [lastEmail, setLastEmail] = useState(options.prefill ?? '')
  // Issue 16, 3: when the server sends another code (the resend link's countdown), and
  // when a refused first send may be tried again (the email input's).
  const resendAt = 'resendAt' in state ? state.resendAt : undefined
  const sendRetryAt = state.status === 'error' && state.step === 'send' ? resendAt : undefined

  const send = async (email: string) => {
    setSendError(null)
    setLastEmail(email)
    await flow.sendCode(email)
    const next = flow.getState()
    if (next.status === 'awaiting-code-input') options.onCodeSent(next.email)
    else if (next.status === 'error') {
      options.onFailure(next.error, 'send', next.email)
      if (INLINE_EMAIL_SEND_ERRORS.has(next.error.code)) setSendError(next.error.code)
    }
  }

  const resend = async () => {
    await flow.resendCode()
    const next = flow.getState()
    if (next.status === 'error') options.onFailure(next.error, 'resend', next.email)
    return next.status === 'awaiting-code-input'
  }

  const submit = async (code: string) => {
    await flow.submitCode(code)
    const next = flow.getState()
    if (next.status === 'done') options.onDone(next)
    else if (next.status === 'error') options.onFailure(next.error, 'submit', next.email)
  }

  return {
    state,
    /** When the server sends another code: the code screen's resend countdown. */
    resendAt,
    /** The email input's props, on the landing screen or its own. */
    input: {
      onSubmit: send,
      sending: state.status === 'sending-code',
      error: sendError,
      retryAt: sendRetryAt,
      onEdit: () => setSendError(null),
      defaultValue: lastEmail,
    },
    /** The failure was shown under the email input. */
    isInlineSendError: (code: ErrorCode) => INLINE_EMAIL_SEND_ERRORS.has(code),
    resend,
    submit,
    reset() {
      flow.reset()
      setSendError(null)
    },
  }
}

export type EmailLogin = ReturnType<typeof useEmailLogin>
