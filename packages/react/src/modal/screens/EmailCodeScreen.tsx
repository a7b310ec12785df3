import type { LatchkeyError } from '@latchkey/core'
import { CODE_RESEND_COOLDOWN_MS, WRONG_CODE_CLEAR_DELAY_MS } from '@latchkey/protocol/constants'
import { type ErrorCode, errorMessages, ISSUE_VERIFYING_CODE } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import { CodeInput, type CodeInputHandle } from '../components/CodeInput.tsx'
import { CheckIcon, MailIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { useSecondsLeft } from '../components/useSecondsLeft.ts'

export interface EmailCodeScreenProps {
  /** Where the code went: the email address, or the phone number for SMS / WhatsApp. */
  email: string
  /** Default 'email'; SMS and WhatsApp codes reuse this screen (spec 01 §4 "Email/SMS login"). */
  channel?: 'email' | 'sms' | 'whatsapp'
  appName: string | null
  submitting: boolean
  /** The last failure of this screen (a new object per failure), from submitting or resending. */
  error: { error: LatchkeyError; step: 'send' | 'submit' } | null
  /**
   * When the server sends another code (epoch ms; the flow state's
   * `resendAt`): until then 'Resend code' counts down, disabled.
   */
  resendAt?: number
  onSubmitCode(code: string): void
  /** Resolves true when a new code went out. */
  onResend(): Promise<boolean>
  onBack(): void
}

// Errors with their own wording in the catalogue; other email code errors read 'Issue
// verifying code' (spec 01 §8).
const WORDED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'INVALID_CODE',
  'TOO_MANY_ATTEMPTS',
  'TOO_MANY_REQUESTS',
  'RESEND_COOLDOWN',
])

function describe(
  { error, step }: NonNullable<EmailCodeScreenProps['error']>,
  resendAt: number | undefined,
  channel: 'email' | 'sms' | 'whatsapp',
): string | null {
  // A resend refused for the cooldown: the countdown on the link says it (issue 16, 3).
  if (error.code === 'RESEND_COOLDOWN' && resendAt !== undefined) return null
  // Spec 01 §8: a 400/422 the server explained shows its message; so does a failed SMS
  // (or WhatsApp) verification, whatever the failure.
  if (error.serverMessage || channel !== 'email') return error.userMessageLine
  if (step === 'send' || WORDED.has(error.code)) return errorMessages[error.code].title
  return ISSUE_VERIFYING_CODE
}

/**
 * Enter confirmation code (spec 01 §2, §4): six boxes submitted automatically
 * once complete; after a failure the boxes clear 1.4 s later with focus back
 * on the first; a resend shows 'Code sent' for 30 s before the link returns.
 * While the server would refuse another code (the resend cooldown, spec 01
 * §9) the link reads 'Resend code in Ns' and is disabled.
 */
export function EmailCodeScreen(props: EmailCodeScreenProps) {
  const { email, appName, submitting, error, resendAt, onSubmitCode, onResend, onBack } = props
  const channel = props.channel ?? 'email'
  const message =
    channel === 'email' ? 'an email' : channel === 'sms' ? 'a text message' : 'a WhatsApp message'
  const boxes = useRef<CodeInputHandle>(null)
  const [shownError, setShownError] = useState(error)
  // The boxes turn red with a wrong code and back to normal once cleared; the message stays.
  const [boxesInError, setBoxesInError] = useState(false)
  const [resend, setResend] = useState<'idle' | 'sending' | 'sent'>('idle')
  const waitSeconds = useSecondsLeft(resendAt)
  const shownMessage = shownError && describe(shownError, resendAt, channel)

  useEffect(() => {
    setShownError(error)
    setBoxesInError(error?.step === 'submit')
    if (error?.step !== 'submit') return
    const timer = setTimeout(() => {
      boxes.current?.clear()
      setBoxesInError(false)
    }, WRONG_CODE_CLEAR_DELAY_MS)
    return () => clearTimeout(timer)
  }, [error])

  useEffect(() => {
    if (resend !== 'sent') return
    const timer = setTimeout(() => setResend('idle'), CODE_RESEND_COOLDOWN_MS)
    return () => clearTimeout(timer)
  }, [resend])

  const resendCode = async () => {
    setResend('sending')
    setResend((await onResend()) ? 'sent' : 'idle')
  }

  return (
    <ScreenLayout
      title="Enter confirmation code"
      subtitle={
        <>
          Please check <strong>{email}</strong> for {message}
          {appName ? ` from ${appName}` : ''} and enter your code below.
        </>
      }
      media={
        <StatusIcon tone="neutral">
          <MailIcon />
        </StatusIcon>
      }
      onBack={onBack}
    >
      <CodeInput
        ref={boxes}
        onComplete={onSubmitCode}
        onChange={() => {
          setShownError(null)
          setBoxesInError(false)
        }}
        busy={submitting}
        status={boxesInError ? 'error' : 'idle'}
      />
      <div aria-live="polite">
        {shownMessage && (
          <p className="lk-alert" role="alert">
            {shownMessage}
          </p>
        )}
        {submitting && (
          <div className="lk-resend">
            <Spinner size="sm" /> Verifying…
          </div>
        )}
      </div>
      <div className="lk-resend">
        {resend === 'sent' ? (
          <span className="lk-badge" role="status">
            <CheckIcon /> Code sent
          </span>
        ) : (
          <>
            <span>Didn't get {channel === 'email' ? 'an email' : 'a code'}?</span>
            <button
              type="button"
              className="lk-link-btn"
              onClick={resendCode}
              disabled={resend === 'sending' || submitting || waitSeconds > 0}
            >
              {waitSeconds > 0 ? `Resend code in ${waitSeconds}s` : 'Resend code'}
            </button>
          </>
        )}
      </div>
    </ScreenLayout>
  )
}
