import { LatchkeyError, toLatchkeyError } from '@latchkey/core'
import { CODE_RESEND_COOLDOWN_MS, WRONG_CODE_CLEAR_DELAY_MS } from '@latchkey/protocol/constants'
import { useEffect, useRef, useState } from 'react'
import type { CodeInputHandle } from '../../components/CodeInput.tsx'
import { AlertIcon, CheckIcon, LockIcon, PhoneIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { isBlockingMfaError, mfaErrorMessage } from './mfa-errors.ts'
import { PasscodeInput } from './PasscodeInput.tsx'
import type { MfaCodeMethod } from './types.ts'

export interface MfaCodeScreenProps {
  method: MfaCodeMethod
  /** 'Enter enrollment code' while setting a method up, else 'Enter verification code'. */
  purpose: 'enroll' | 'verify'
  /** SMS: where the code went (masked or in full); 'your phone' when unknown. */
  phone?: string
  /** Checks a complete code; resolving ends this screen (the parent moves on). */
  onSubmit(code: string): Promise<void>
  /** SMS: sends a code (again): 'Resend code'. */
  onResend?(): Promise<void>
  /** SMS: send the first code on entering (verification); else one was just sent. */
  sendOnMount?: boolean
  /** SMS: after a code goes out, 'Code sent' shows this long before 'Resend code' returns. */
  resendCooldownMs?: number
  /**
   * Spec 02 §9: with no code accepted this long after entering, the screen
   * gives way to the MFA_TIMEOUT message. Unset: no limit.
   */
  waitMs?: number
  /** Shows 'Choose another method'. */
  onChooseAnother?(): void
  onCancel(): void
  /** Close after a blocking error; default `onCancel`. */
  onClose?(): void
  onBack?(): void
}

const subtitleOf = (method: MfaCodeMethod, phone: string | undefined) =>
  method === 'totp'
    ? 'Enter the 6-digit code from your authenticator app.'
    : `Enter the 6-digit code sent to ${phone ?? 'your phone'}.`

type Resend = 'sending' | 'sent' | 'idle'

/**
 * Code entry for MFA (spec 02 "Multi-factor verification" / "enrollment"):
 * six boxes, submitted once complete. A wrong code (MFA_INVALID_CODE) reads
 * 'The code you entered is not valid', the boxes clear 1.4 s later and the
 * user tries again; too many attempts or the time limit (spec 02 §8,
 * blocking) replace the boxes with the message, with the server's real wait
 * when it is longer than the spec's hint, and a Close.
 */
export function MfaCodeScreen(props: MfaCodeScreenProps) {
  const { method, purpose, phone, onSubmit, onResend, onChooseAnother, onCancel, onBack } = props
  const cooldown = props.resendCooldownMs ?? CODE_RESEND_COOLDOWN_MS
  const boxes = useRef<CodeInputHandle>(null)
  const [submitting, setSubmitting] = useState(false)
  const [message, setMessage] = useState<string | null>(null)
  const [wrong, setWrong] = useState(false)
  const [blocking, setBlocking] = useState<string | null>(null)
  const [resend, setResend] = useState<Resend>(props.sendOnMount ? 'idle' : 'sent')
  const sentOnMount = useRef(false)

  const fail = (error: LatchkeyError) => {
    if (isBlockingMfaError(error)) setBlocking(mfaErrorMessage(error))
    else setMessage(mfaErrorMessage(error))
  }

  const send = async () => {
    if (!onResend) return
    setResend('sending')
    try {
      await onResend()
      setResend('sent')
    } catch (cause) {
      setResend('idle')
      fail(toLatchkeyError(cause))
    }
  }

  // Verification sends the SMS code on entering; once, even when effects run twice.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on entering only
  useEffect(() => {
    if (!props.sendOnMount || sentOnMount.current) return
    sentOnMount.current = true
    void send()
  }, [])

  useEffect(() => {
    if (resend !== 'sent') return
    const timer = setTimeout(() => setResend('idle'), cooldown)
    return () => clearTimeout(timer)
  }, [resend, cooldown])

  useEffect(() => {
    if (!wrong) return
    const timer = setTimeout(() => {
      boxes.current?.clear()
      setWrong(false)
    }, WRONG_CODE_CLEAR_DELAY_MS)
    return () => clearTimeout(timer)
  }, [wrong])

  const { waitMs } = props
  useEffect(() => {
    if (!waitMs) return
    const timer = setTimeout(
      () => setBlocking(mfaErrorMessage(new LatchkeyError('MFA_TIMEOUT'))),
      waitMs,
    )
    return () => clearTimeout(timer)
  }, [waitMs])

  const submit = async (code: string) => {
    setSubmitting(true)
    setMessage(null)
    try {
      await onSubmit(code)
    } catch (cause) {
      const error = toLatchkeyError(cause)
      fail(error)
      // Every failure leaves the boxes to be typed again; a wrong code turns them red first.
      if (!isBlockingMfaError(error)) setWrong(true)
    } finally {
      setSubmitting(false)
    }
  }

  const title = purpose === 'enroll' ? 'Enter enrollment code' : 'Enter verification code'
  if (blocking) {
    return (
      <ScreenLayout
        title={title}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <p className="lk-alert" role="alert">
          {blocking}
        </p>
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            onClick={props.onClose ?? onCancel}
          >
            Close
          </button>
        </div>
      </ScreenLayout>
    )
  }

  return (
    <ScreenLayout
      title={title}
      subtitle={subtitleOf(method, phone)}
      media={
        <StatusIcon tone="neutral">{method === 'sms' ? <PhoneIcon /> : <LockIcon />}</StatusIcon>
      }
      onBack={onBack}
    >
      <PasscodeInput
        ref={boxes}
        onComplete={(code) => void submit(code)}
        onChange={() => {
          setMessage(null)
          setWrong(false)
        }}
        busy={submitting}
        status={wrong ? 'error' : 'idle'}
      />
      <div aria-live="polite">
        {message && (
          <p className="lk-alert" role="alert">
            {message}
          </p>
        )}
        {submitting && (
          <div className="lk-resend">
            <Spinner size="sm" /> Verifying…
          </div>
        )}
      </div>
      {method === 'sms' && onResend && (
        <div className="lk-resend">
          {resend === 'sent' ? (
            <span className="lk-badge" role="status">
              <CheckIcon /> Code sent
            </span>
          ) : (
            <>
              <span>Didn't get a code?</span>
              <button
                type="button"
                className="lk-link-btn"
                onClick={() => void send()}
                disabled={resend === 'sending' || submitting}
              >
                {resend === 'sending' ? 'Sending…' : 'Resend code'}
              </button>
            </>
          )}
        </div>
      )}
      <div className="lk-actions">
        {onChooseAnother && (
          <button type="button" className="lk-btn lk-btn-secondary" onClick={onChooseAnother}>
            Choose another method
          </button>
        )}
        <button type="button" className="lk-link-btn lk-explainer-toggle" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </ScreenLayout>
  )
}
