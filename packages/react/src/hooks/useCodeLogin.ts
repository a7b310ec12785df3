import type { EmailFlow, LatchkeyError, LoginMethod, User } from '@latchkey/core'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { LoginResult } from '../store.ts'

/** What the hook reads of a code flow's state (EmailFlowState, SmsFlowState). */
export type CodeLoginState =
  | { status: 'initial' | 'sending-code' | 'awaiting-code-input' | 'submitting-code' }
  | { status: 'done'; user: User; isNewUser: boolean }
  | { status: 'error'; error: LatchkeyError }

/**
 * One of core's code flows (EmailFlow, SmsFlow): the same methods over its
 * own state (core's `CodeFlow`, which the package does not export).
 */
export type CodeLoginFlow<State> = Omit<EmailFlow, 'getState'> & { getState(): State }

export interface UseCodeLoginParameters {
  onComplete?(result: LoginResult): void
  onError?(code: ErrorCode): void
}

/** What differs between the code-login hooks. */
export interface CodeLoginChannel<State, Key extends string> {
  /** The login method reported on completion ('email', 'sms'). */
  method: LoginMethod
  /** The name of the address in `sendCode`'s parameters ('email', 'phoneNumber'). */
  key: Key
  /** A login flow for `disableSignup`; memoised by the caller (a new function makes a new flow). */
  create(disableSignup: boolean): CodeLoginFlow<State>
  /** The flow's other options, as a string: when they change, the next send makes a new flow. */
  variant: string
}

/** `sendCode`'s parameters: the address under the channel's key. */
export type CodeSendParameters<Key extends string> = { [K in Key]: string } & {
  disableSignup?: boolean
  captchaToken?: string
}

export interface UseCodeLoginReturnType<State, Key extends string> {
  state: State
  sendCode(parameters: CodeSendParameters<Key>): Promise<void>
  loginWithCode(parameters: { code: string }): Promise<void>
}

interface FlowEntry<State> {
  flow: CodeLoginFlow<State>
  key: string
}

/**
 * One code login (core's email or SMS flow) wired to React state, for the
 * headless hooks `useLoginWithEmail` and `useLoginWithSms`. A flow's intent
 * is fixed when it is made, so a send with another `disableSignup` (or other
 * options, `variant`) makes a new one. A new channel (an 'sms-mfa' or 'totp'
 * step) is one more `CodeLoginChannel` over its core flow.
 *
 * @example
 * const create = useCallback((disableSignup) => createSmsFlow(client, { intent: … }), [client])
 * return useCodeLogin(parameters, { method: 'sms', key: 'phoneNumber', create, variant: '' })
 */
export function useCodeLogin<State extends CodeLoginState, Key extends string>(
  parameters: UseCodeLoginParameters,
  { method, key, create, variant }: CodeLoginChannel<State, Key>,
): UseCodeLoginReturnType<State, Key> {
  const callbacks = useRef(parameters)
  useEffect(() => {
    callbacks.current = parameters
  })

  const make = useCallback(
    (disableSignup: boolean): FlowEntry<State> => ({
      flow: create(disableSignup),
      key: `${disableSignup}|${variant}`,
    }),
    [create, variant],
  )
  const [flow, setFlow] = useState<FlowEntry<State>>(() => make(false))
  const current = useRef(flow)
  current.current = flow
  const state = useSyncExternalStore(flow.flow.subscribe, flow.flow.getState, flow.flow.getState)

  const report = useCallback(
    (next: CodeLoginState) => {
      if (next.status === 'error') callbacks.current.onError?.(next.error.code)
      if (next.status === 'done')
        callbacks.current.onComplete?.({
          user: next.user,
          isNewUser: next.isNewUser,
          wasAlreadyAuthenticated: false,
          loginMethod: method,
        })
    },
    [method],
  )

  const sendCode = useCallback(
    async (parameters: CodeSendParameters<Key>) => {
      const { disableSignup = false, captchaToken } = parameters
      let entry = current.current
      if (entry.key !== `${disableSignup}|${variant}`) {
        entry = make(disableSignup)
        current.current = entry
        setFlow(entry)
      }
      await entry.flow.sendCode(parameters[key], captchaToken)
      report(entry.flow.getState())
    },
    [make, variant, key, report],
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
