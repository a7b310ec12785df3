import { type ChangeEvent, type ClipboardEvent, useState } from 'react'
import { CodeInput, type CodeInputProps } from '../../components/CodeInput.tsx'

/** Spec 02 §5: the MFA and enrollment boxes' wording for anything but digits. */
export const PASSCODE_NOT_NUMERIC = 'Passcode can only be numbers'

/** Whitespace is stripped (spec 02 §5); anything else but digits is refused. */
const notNumeric = (text: string) => /[^\d\s]/.test(text)

/**
 * The six code boxes of `CodeInput` (its reducer keeps the spec's rules:
 * paste from the current box, at most 6 digits, 'Passcode must be exactly 6
 * numbers', Backspace moves back) with spec 02 §5's MFA wording: a letter
 * typed or pasted is stopped before the boxes see it and reads 'Passcode can
 * only be numbers' instead of the login screens' 'Code should be numeric'.
 */
export function PasscodeInput({ onChange, ...props }: CodeInputProps) {
  const [refused, setRefused] = useState(false)

  const screen = (text: string, event: { stopPropagation(): void; preventDefault(): void }) => {
    if (props.busy || !notNumeric(text)) {
      setRefused(false)
      return
    }
    // Stopped in the capture phase: the boxes keep their digits, as the reducer would.
    event.stopPropagation()
    event.preventDefault()
    setRefused(true)
  }

  return (
    <div
      onChangeCapture={(event: ChangeEvent<HTMLInputElement>) => screen(event.target.value, event)}
      onPasteCapture={(event: ClipboardEvent<HTMLInputElement>) =>
        screen(event.clipboardData.getData('text'), event)
      }
    >
      <CodeInput
        {...props}
        onChange={(code) => {
          setRefused(false)
          onChange?.(code)
        }}
      />
      {refused && (
        <p className="lk-inline-error lk-code-error" role="alert">
          {PASSCODE_NOT_NUMERIC}
        </p>
      )}
    </div>
  )
}
