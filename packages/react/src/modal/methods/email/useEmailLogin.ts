import { createEmailFlow, type LatchkeyClient, type LatchkeyError, type User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useMemo, useState } from 'react'
import { useCodeMethod } from '../code/useCodeMethod.ts'

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
  const code = useCodeMethod({
    flow,
    inlineSendErrors: INLINE_EMAIL_SEND_ERRORS,
    addressOf: (state) => state.email,
    onCodeSent: (state) => options.onCodeSent(state.email),
    onDone: options.onDone,
    onFailure: options.onFailure,
  })
  const [lastEmail, setLastEmail] = useState(options.prefill ?? '')

  return {
    state: code.state,
    /** When the server sends another code: the code screen's resend countdown. */
    resendAt: code.resendAt,
    /** The email input's props, on the landing screen or its own. */
    input: {
      onSubmit: (email: string) => {
        setLastEmail(email)
        return code.send(email)
      },
      sending: code.state.status === 'sending-code',
      error: code.sendError,
      retryAt: code.retryAt,
      onEdit: code.clearSendError,
      defaultValue: lastEmail,
    },
    /** The failure was shown under the email input. */
    isInlineSendError: code.isInlineSendError,
    resend: code.resend,
    submit: code.submit,
    reset: code.reset,
  }
}

export type EmailLogin = ReturnType<typeof useEmailLogin>
