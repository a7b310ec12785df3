import type { LatchkeyError, User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useState, useSyncExternalStore } from 'react'
import type { CodeLoginFlow } from '../../../hooks/useCodeLogin.ts'

/** What the modal reads of a code flow's state (EmailFlowState, SmsFlowState). */
type CodeMethodState =
  | { status: 'initial' | 'sending-code' }
  | { status: 'awaiting-code-input' | 'submitting-code'; resendAt: number }
  | { status: 'done'; user: User; isNewUser: boolean }
  | { status: 'error'; error: LatchkeyError; step: 'send' | 'submit'; resendAt?: number }

type Awaiting<State> = Extract<State, { status: 'awaiting-code-input' }>
type Failed<State> = Extract<State, { status: 'error' }>

export interface UseCodeMethodOptions<State> {
  /** The attempt's flow; memoised by the caller. */
  flow: CodeLoginFlow<State>
  /** Send failures the address input shows itself (spec 01 §5); others get the flow's screens. */
  inlineSendErrors: ReadonlySet<ErrorCode>
  /** The address a failure was for, as the state has it. */
  addressOf(state: Failed<State>): string
  /** A code is on its way: show the code screen. */
  onCodeSent(state: Awaiting<State>): void
  onDone(result: { user: User; isNewUser: boolean }): void
  /** A failure the address input cannot show: the flow decides the screen. */
  onFailure(error: LatchkeyError, step: 'send' | 'resend' | 'submit', address: string): void
}

/**
 * The modal's code login, the same for every channel (useEmailLogin,
 * useSmsLogin): the send with the errors its address input shows, and the
 * code screen's resend and submit. A channel adds its flow and its input;
 * a new one (an 'sms-mfa' or 'totp' step) adds no more than that.
 *
 * @example
 * const code = useCodeMethod({ flow, inlineSendErrors, addressOf: (s) => s.email, … })
 * await code.send('alice@example.com')
 */
export function useCodeMethod<State extends CodeMethodState>(options: UseCodeMethodOptions<State>) {
  const { flow, inlineSendErrors } = options
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const current: CodeMethodState = state
  const [sendError, setSendError] = useState<ErrorCode | null>(null)
  // Issue 16, 3: when the server sends another code (the resend link's countdown), and
  // when a refused first send may be tried again (the address input's).
  const resendAt = 'resendAt' in current ? current.resendAt : undefined
  const retryAt = current.status === 'error' && current.step === 'send' ? resendAt : undefined

  const send = async (address: string) => {
    setSendError(null)
    await flow.sendCode(address)
    const next = flow.getState()
    if (next.status === 'awaiting-code-input') options.onCodeSent(next as Awaiting<State>)
    else if (next.status === 'error') {
      const failed = next as Failed<State>
      if (inlineSendErrors.has(failed.error.code)) setSendError(failed.error.code)
      options.onFailure(failed.error, 'send', options.addressOf(failed))
    }
  }

  const resend = async () => {
    await flow.resendCode()
    const next = flow.getState()
    if (next.status === 'error') {
      const failed = next as Failed<State>
      options.onFailure(failed.error, 'resend', options.addressOf(failed))
    }
    return next.status === 'awaiting-code-input'
  }

  const submit = async (code: string) => {
    await flow.submitCode(code)
    const next: CodeMethodState = flow.getState()
    if (next.status === 'done') options.onDone(next)
    else if (next.status === 'error')
      options.onFailure(next.error, 'submit', options.addressOf(next as Failed<State>))
  }

  return {
    state,
    /** When the server sends another code: the code screen's resend countdown. */
    resendAt,
    /** When a refused send may be tried again: the address input's wait. */
    retryAt,
    /** The send failure the address input shows, if any. */
    sendError,
    clearSendError: () => setSendError(null),
    /** The failure was shown under the address input. */
    isInlineSendError: (code: ErrorCode) => inlineSendErrors.has(code),
    send,
    resend,
    submit,
    reset() {
      flow.reset()
      setSendError(null)
    },
  }
}
