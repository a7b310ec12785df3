import { validateEmailInput } from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { useId, useState } from 'react'
import { MailIcon } from './icons.tsx'
import { Spinner } from './Spinner.tsx'

export interface EmailFormProps {
  onSubmit(email: string): void
  submitting?: boolean
  disablePlusEmails?: boolean
  defaultValue?: string
  /** Shows the 'Recent' chip: email was this browser's last login method for the app. */
  recent?: boolean
  /** An error from sending the code, shown under the field until the address changes. */
  error?: ErrorCode | null
  onEdit?(): void
  autoFocus?: boolean
}

/**
 * The email input of spec 01 §2: Enter or Submit; Submit disabled while
 * submitting or while the address is invalid; a plus-address is refused
 * inline when the app disables them (§5).
 */
export function EmailForm({
  onSubmit,
  submitting = false,
  disablePlusEmails = false,
  defaultValue = '',
  recent = false,
  error = null,
  onEdit,
  autoFocus = true,
}: EmailFormProps) {
  const [value, setValue] = useState(defaultValue)
  const messageId = useId()
  const problem =
    value.trim() === '' ? 'INVALID_EMAIL' : validateEmailInput(value, { disablePlusEmails })
  // Only the plus rule speaks up while typing; an unfinished address just keeps Submit disabled.
  const inline: ErrorCode | null = problem === 'PLUS_EMAIL_NOT_ALLOWED' ? problem : error
  const canSubmit = problem === null && !submitting

  return (
    <form
      className="lk-email-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
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
        />
        {recent && value === '' && <span className="lk-chip">Recent</span>}
        <button type="submit" className="lk-submit" disabled={!canSubmit} aria-label="Submit">
          {submitting ? <Spinner size="sm" /> : 'Submit'}
        </button>
      </div>
      {inline && (
        <p className="lk-inline-error" id={messageId} role="alert">
          {errorMessages[inline].title}
        </p>
      )}
    </form>
  )
}
