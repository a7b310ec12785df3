import { validateEmailInput } from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { useId, useState } from 'react'
import { MailIcon } from './icons.tsx'
import { Spinner } from './Spinner.tsx'
import { useSecondsLeft } from './useSecondsLeft.ts'

export interface EmailFormProps {
  onSubmit(email: string): void
  submitting?: boolean
  disablePlusEmails?: boolean
  defaultValue?: string
  /** Shows the 'Recent' chip: email was this browser's last login method for the app. */
  recent?: boolean
  /** An error from sending the code, shown under the field until the address changes. */
  error?: ErrorCode | null
  /**
   * When the server accepts a send again (epoch ms, from a 429's
   * `retry_after`): the error counts down to it, then goes.
   */
  retryAt?: number
  onEdit?(): void
  autoFocus?: boolean
}

/**
 * The email input of spec 01 §2: Enter or Submit; Submit disabled while
 * submitting or while the address is invalid; a plus-address is refused
 * inline when the app disables them (§5). An invalid address says so inline
 * ('Please enter a valid email address.', the §5 wording without the '+')
 * once the user presses Enter or leaves the field, not while they type.
 */
export function EmailForm({
  onSubmit,
  submitting = false,
  disablePlusEmails = false,
  defaultValue = '',
  recent = false,
  error = null,
  retryAt,
  onEdit,
  autoFocus = true,
}: EmailFormProps) {
  const [value, setValue] = useState(defaultValue)
  // Issue 16, 4c: the user tried to go on (Enter, or left the field) with this address.
  const [attempted, setAttempted] = useState(false)
  const messageId = useId()
  const problem =
    value.trim() === '' ? 'INVALID_EMAIL' : validateEmailInput(value, { disablePlusEmails })
  const waitSeconds = useSecondsLeft(retryAt)
  const sendError = retryAt !== undefined && waitSeconds === 0 ? null : error
  // The plus rule speaks up while typing; an unfinished address only once the user tried it.
  const inline: ErrorCode | null =
    problem === 'PLUS_EMAIL_NOT_ALLOWED' || (problem && attempted) ? problem : sendError
  const canSubmit = problem === null && !submitting

  return (
    <form
      className="lk-email-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        setAttempted(true)
        if (canSubmit) onSubmit(value.trim())
      }}
    >
      <div className="lk-input-wrap" data-invalid={inline ? true : undefined}>
        <span className="lk-input-icon">
          <MailIcon />
        </span>
        <input
          className="lk-input"
          type="email"
          name="email"
          placeholder="your@email.com"
          aria-label="Email address"
          autoComplete="email"
          autoFocus={autoFocus}
          value={value}
          aria-invalid={inline ? true : undefined}
          aria-describedby={inline ? messageId : undefined}
          onChange={(event) => {
            setValue(event.target.value)
            onEdit?.()
          }}
          onBlur={() => {
            if (value.trim() !== '') setAttempted(true)
          }}
          // With Submit disabled, Enter submits nothing (HTML implicit submission): listen here.
          onKeyDown={(event) => {
            if (event.key === 'Enter') setAttempted(true)
          }}
        />
        {recent && value === '' && <span className="lk-chip">Recent</span>}
        <button type="submit" className="lk-submit" disabled={!canSubmit} aria-label="Submit">
          {submitting ? <Spinner size="sm" /> : 'Submit'}
        </button>
      </div>
      {inline && (
        <p className="lk-inline-error" id={messageId} role="alert">
          {errorMessages[inline].title}
          {inline === sendError && waitSeconds > 0 && ` Try again in ${waitSeconds}s.`}
        </p>
      )}
    </form>
  )
}
