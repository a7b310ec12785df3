import { useId, useState } from 'react'
import { EyeIcon, EyeOffIcon, LockIcon } from './icons.tsx'

export interface PasswordInputProps {
  value: string
  onChange(value: string): void
  /** The input's accessible name, e.g. 'Password' or 'Confirm password'. */
  label: string
  /** Shown under the field (role=alert) and marks the field invalid. */
  error?: string | null
  autoFocus?: boolean
  disabled?: boolean
  autoComplete?: 'new-password' | 'current-password'
}

/** A password field with a show/hide toggle (spec 02 "show/hide"). */
export function PasswordInput({
  value,
  onChange,
  label,
  error = null,
  autoFocus = true,
  disabled = false,
  autoComplete = 'new-password',
}: PasswordInputProps) {
  const [shown, setShown] = useState(false)
  const messageId = useId()
  return (
    <div>
      <div className="lk-input-wrap" data-invalid={error ? true : undefined}>
        <span className="lk-input-icon">
          <LockIcon />
        </span>
        <input
          className="lk-input"
          type={shown ? 'text' : 'password'}
          aria-label={label}
          autoComplete={autoComplete}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          autoFocus={autoFocus}
          disabled={disabled}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
        <button
          type="button"
          className="lk-icon-btn"
          aria-label={shown ? 'Hide password' : 'Show password'}
          aria-pressed={shown}
          onClick={() => setShown(!shown)}
        >
          {shown ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {error && (
        <p className="lk-inline-error lk-field-error" id={messageId} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}
