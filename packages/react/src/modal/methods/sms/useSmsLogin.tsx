import {
  createSmsFlow,
  type LatchkeyClient,
  type LatchkeyError,
  type SmsFlowIntent,
  type User,
} from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { lazy, type ReactNode, Suspense, useMemo, useState, useSyncExternalStore } from 'react'
import type { ResolvedConfig } from '../../../config.ts'
import { useSecondsLeft } from '../../components/useSecondsLeft.ts'

// The phone input carries libphonenumber's metadata: loaded only when SMS login is drawn.
const PhoneForm = lazy(() => import('./PhoneForm.tsx').then((m) => ({ default: m.PhoneForm })))

// SMS send failures shown under the phone input; others go to the flow's error screen.
const INLINE_SMS_SEND_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_PHONE_NUMBER',
  'SMS_REGION_NOT_ALLOWED',
  'INVALID_PAYLOAD',
  'TOO_MANY_REQUESTS',
  'RESEND_COOLDOWN',
])

export interface UseSmsLoginOptions {
  client: LatchkeyClient
  config: ResolvedConfig
  /** Log in, link, or replace the user's number. */
  intent: SmsFlowIntent
  /** `prefill` of type phone (E.164). */
  prefill?: string
  /** This browser last logged in by phone (the 'Recent' chip). */
  recent: boolean
  /** A code is on its way: show the code screen. */
  onCodeSent(phoneNumber: string, channel: 'sms' | 'whatsapp'): void
  onDone(result: { user: User; isNewUser: boolean }): void
  /** A failure the phone input cannot show: the flow decides the screen. `phoneNumber` is E.164. */
  onFailure(error: LatchkeyError, step: 'send' | 'resend' | 'submit', phoneNumber: string): void
}

/**
 * The modal's SMS/WhatsApp login (core's SMS flow): the phone input with its
 * inline errors, and the code screen's resend and submit. The flow component
 * only places `phoneInput` and moves between screens.
 */
export function useSmsLogin(options: UseSmsLoginOptions) {
  const { client, config, intent } = options
  // biome-ignore lint/correctness/useExhaustiveDependencies: one flow per modal attempt; the intent is fixed for it
  const flow = useMemo(() => createSmsFlow(client, { intent }), [client])
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const [sendError, setSendError] = useState<ErrorCode | null>(null)
  // A send refused for the cooldown (the last code was used): the wait, from retry_after.
  const retryAt = state.status === 'error' && state.step === 'send' ? state.resendAt : undefined
  const waitSeconds = useSecondsLeft(retryAt)
  const shownError =
    !sendError || (retryAt !== undefined && waitSeconds === 0)
      ? null
      : `${errorMessages[sendError].title}${waitSeconds > 0 ? ` Try again in ${waitSeconds}s.` : ''}`

  const send = async (phoneNumber: string) => {
    setSendError(null)
    await flow.sendCode(phoneNumber)
    const next = flow.getState()
    if (next.status === 'awaiting-code-input') options.onCodeSent(next.phoneNumber, next.channel)
    else if (next.status === 'error') {
      if (INLINE_SMS_SEND_ERRORS.has(next.error.code)) setSendError(next.error.code)
      options.onFailure(next.error, 'send', next.phoneNumber)
    }
  }

  const resend = async () => {
    await flow.resendCode()
    const next = flow.getState()
    if (next.status === 'error') options.onFailure(next.error, 'resend', next.phoneNumber)
    return next.status === 'awaiting-code-input'
  }

  const submit = async (code: string) => {
    await flow.submitCode(code)
    const next = flow.getState()
    if (next.status === 'done') options.onDone(next)
    else if (next.status === 'error') options.onFailure(next.error, 'submit', next.phoneNumber)
  }

  const phoneInput = (autoFocus: boolean): ReactNode => (
    <Suspense fallback={null}>
      <PhoneForm
        defaultCountry={config.defaultCountry}
        whatsapp={config.whatsappEnabled}
        busy={state.status === 'sending-code'}
        error={shownError}
        onSubmit={(phone) => void send(phone)}
        onEdit={() => setSendError(null)}
        autoFocus={autoFocus}
        defaultValue={options.prefill}
        recent={options.recent}
      />
    </Suspense>
  )

  return {
    state,
    /** The failure was shown under the phone input. */
    isInlineSendError: (code: ErrorCode) => INLINE_SMS_SEND_ERRORS.has(code),
    phoneInput,
    resend,
    submit,
    reset() {
      flow.reset()
      setSendError(null)
    },
  }
}
