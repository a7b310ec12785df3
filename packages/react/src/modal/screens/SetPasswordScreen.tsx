import { LatchkeyError } from '@latchkey/core'
import { SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { errorMessages } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import type { SetPasswordRequest } from '../../store.ts'
import { AlertIcon, CheckIcon, CopyIcon, DownloadIcon, LockIcon } from '../components/icons.tsx'
import { PasswordInput } from '../components/PasswordInput.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { StrengthMeter } from '../components/StrengthMeter.tsx'
import { useCopyFeedback } from '../components/useCopyFeedback.ts'
import { generatePassword, passwordStrength, validatePassword } from '../password.ts'
import { downloadTextFile } from '../save-password.ts'

export interface SetPasswordScreenProps {
  request: SetPasswordRequest
  /** The password is set; the modal's promise resolves when it closes. */
  onSet(): void
  /** Close, Cancel, or 1.4 s after success when the wizard started automatically. */
  onClose(): void
  /**
   * Back from the first step: given only when the user arrived from the
   * recovery choice ('Secure your account', spec 02 §4).
   */
  onBack?: () => void
}

/** Spec 02 §4: the wizard's states, in order; Back goes one step back. */
const STEPS = ['creating', 'saving', 'confirming', 'finalizing', 'done'] as const
type Step = (typeof STEPS)[number]

// Spec 02 §8: what 'Something went wrong' says under it.
const failureMessage = (error: unknown) =>
  error instanceof LatchkeyError && error.code !== 'INTERNAL_ERROR'
    ? error.userMessage.title
    : errorMessages.RECOVERY_FAILED.title

const lockIcon = (
  <StatusIcon tone="neutral">
    <LockIcon />
  </StatusIcon>
)

/**
 * Spec 02 "Password wizard": create (type or generate, show/hide, strength),
 * save (copy or download), confirm ('Passwords do not match'), finalize
 * (acknowledge the risk, 'Set Password', Cancel when the user started it),
 * done ('Success' or 'Something went wrong'). The password is set by the
 * request's `setPassword` (core); this only renders.
 */
export function SetPasswordScreen({ request, onSet, onClose, onBack }: SetPasswordScreenProps) {
  const [step, setStep] = useState<Step>('creating')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [acknowledged, setAcknowledged] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const { copy, copied, confirmIcon } = useCopyFeedback()
  const close = useRef(onClose)
  close.current = onClose

  const back = () => setStep(STEPS[Math.max(STEPS.indexOf(step) - 1, 0)] as Step)
  const next = () => setStep(STEPS[STEPS.indexOf(step) + 1] as Step)

  useEffect(() => {
    if (step !== 'done' || failure || !request.automatic) return
    const timer = setTimeout(() => close.current(), SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [step, failure, request.automatic])

  const submit = async () => {
    setSubmitting(true)
    try {
      await request.setPassword(password)
      setFailure(null)
      onSet()
    } catch (error) {
      setFailure(failureMessage(error))
    }
    setSubmitting(false)
    setStep('done')
  }

  if (step === 'creating') {
    const validation = validatePassword(password)
    return (
      <ScreenLayout
        title="Create a password"
        subtitle="You will need it to use your wallet on a new device."
        media={lockIcon}
        onBack={onBack}
      >
        <form
          className="lk-stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            if (validation.valid) next()
          }}
        >
          <PasswordInput
            label="Password"
            value={password}
            onChange={setPassword}
            error={password && !validation.valid ? validation.message : null}
          />
          <div className="lk-row">
            <StrengthMeter strength={passwordStrength(password)} />
            <button
              type="button"
              className="lk-link-btn"
              onClick={() => setPassword(generatePassword())}
            >
              Generate
            </button>
          </div>
          <button type="submit" className="lk-btn lk-btn-primary" disabled={!validation.valid}>
            Continue
          </button>
        </form>
      </ScreenLayout>
    )
  }

  if (step === 'saving')
    return (
      <ScreenLayout
        title="Save your password"
        subtitle="Keep it somewhere safe, like a password manager. It cannot be reset."
        media={lockIcon}
        onBack={back}
      >
        <div className="lk-details">
          <pre className="lk-details-text lk-secret" data-testid="lk-password-value">
            {password}
          </pre>
        </div>
        <div className="lk-row">
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            onClick={() => copy(password)}
            data-confirmed={confirmIcon || undefined}
          >
            {confirmIcon ? <CheckIcon /> : <CopyIcon />}
            {copied ? 'Copied' : 'Copy'}
          </button>
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            onClick={() => downloadTextFile(password)}
          >
            <DownloadIcon />
            Download
          </button>
        </div>
        <button type="button" className="lk-btn lk-btn-primary" onClick={next}>
          Continue
        </button>
      </ScreenLayout>
    )

  if (step === 'confirming') {
    // Spec 02 §5: 'Passwords do not match' as soon as the confirmation differs.
    const matches = confirm === password
    const mismatch = confirm !== '' && !matches
    return (
      <ScreenLayout
        title="Confirm your password"
        subtitle="Type it again to make sure you have it right."
        media={lockIcon}
        onBack={back}
      >
        <form
          className="lk-stack"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            if (matches) next()
          }}
        >
          <PasswordInput
            label="Confirm password"
            value={confirm}
            onChange={setConfirm}
            error={mismatch ? 'Passwords do not match' : null}
          />
          <button type="submit" className="lk-btn lk-btn-primary" disabled={!matches}>
            Continue
          </button>
        </form>
      </ScreenLayout>
    )
  }

  if (step === 'finalizing')
    return (
      <ScreenLayout
        title="Set your password"
        subtitle="Your password is the only way to recover your wallet on a new device."
        media={lockIcon}
        onBack={submitting ? undefined : back}
      >
        <label className="lk-checkbox">
          <input
            type="checkbox"
            checked={acknowledged}
            disabled={submitting}
            onChange={(event) => setAcknowledged(event.target.checked)}
          />
          <span>
            I understand that if I lose my password, I may lose access to my wallet and its assets.
          </span>
        </label>
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            disabled={!acknowledged || submitting}
            aria-busy={submitting}
            onClick={() => void submit()}
          >
            {submitting ? 'Setting password...' : 'Set Password'}
          </button>
          {!request.automatic && (
            <button
              type="button"
              className="lk-btn lk-btn-secondary"
              disabled={submitting}
              onClick={onClose}
            >
              Cancel
            </button>
          )}
        </div>
      </ScreenLayout>
    )

  return (
    <ScreenLayout
      title={failure ? 'Something went wrong' : 'Success'}
      subtitle={failure ?? 'Your wallet is now protected by your password.'}
      media={
        <StatusIcon tone={failure ? 'error' : 'success'}>
          {failure ? <AlertIcon /> : <CheckIcon />}
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onClose}>
          Close
        </button>
      </div>
      {!failure && (
        <p className="lk-visually-hidden" role="status">
          Password set
        </p>
      )}
    </ScreenLayout>
  )
}
