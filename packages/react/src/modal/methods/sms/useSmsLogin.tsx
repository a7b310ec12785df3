import {
  createSmsFlow,
  type LatchkeyClient,
  type LatchkeyError,
  type SmsFlowIntent,
  type User,
} from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { lazy, type ReactNode, Suspense, useMemo } from 'react'
import type { ResolvedConfig } from '../../../config.ts'
import { useSecondsLeft } from '../../components/useSecondsLeft.ts'
import { useCodeMethod } from '../code/useCodeMethod.ts'

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
  const code = useCodeMethod({
    flow,
    inlineSendErrors: INLINE_SMS_SEND_ERRORS,
    addressOf: (state) => state.phoneNumber,
    onCodeSent: (state) => options.onCodeSent(state.phoneNumber, state.channel),
    onDone: options.onDone,
    onFailure: options.onFailure,
  })
  // A send refused for the cooldown (the last code was used): the wait, from retry_after.
  const waitSeconds = useSecondsLeft(code.retryAt)
  const shownError =
    !code.sendError || (code.retryAt !== undefined && waitSeconds === 0)
      ? null
      : `${errorMessages[code.sendError].title}${waitSeconds > 0 ? ` Try again in ${waitSeconds}s.` : ''}`

  const phoneInput = (autoFocus: boolean): ReactNode => (
    <Suspense fallback={null}>
      <PhoneForm
        defaultCountry={config.defaultCountry}
        whatsapp={config.whatsappEnabled}
        busy={code.state.status === 'sending-code'}
        error={shownError}
        onSubmit={(phone) => void code.send(phone)}
        onEdit={code.clearSendError}
        autoFocus={autoFocus}
        defaultValue={options.prefill}
        recent={options.recent}
      />
    </Suspense>
  )

  return {
    state: code.state,
    /** The failure was shown under the phone input. */
    isInlineSendError: code.isInlineSendError,
    phoneInput,
    resend: code.resend,
    submit: code.submit,
    reset: code.reset,
  }
}
