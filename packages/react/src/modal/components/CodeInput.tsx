import { CODE_LENGTH } from '@latchkey/protocol/constants'
import { errorMessages } from '@latchkey/protocol/errors'
import {
  type ChangeEvent,
  type ClipboardEvent,
  type KeyboardEvent,
  type Ref,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react'
import {
  type CodeInputAction,
  codeInputReducer,
  codeValue,
  emptyCode,
  isCodeComplete,
} from './code-input.ts'

export interface CodeInputHandle {
  /** Empties every box and focuses the first. */
  clear(): void
  focus(): void
}

export interface CodeInputProps {
  /** Called once all six boxes hold a digit (spec 01 §4: the code is submitted automatically). */
  onComplete(code: string): void
  /** Called on every change, e.g. to hide a stale error. */
  onChange?(code: string): void
  /** Boxes refuse input while a code is being checked. */
  busy?: boolean
  status?: 'idle' | 'error' | 'success'
  autoFocus?: boolean
  ref?: Ref<CodeInputHandle>
}

/** Six single-digit boxes; the logic lives in the pure `codeInputReducer`. */
export function CodeInput({
  onComplete,
  onChange,
  busy = false,
  status = 'idle',
  autoFocus = true,
  ref,
}: CodeInputProps) {
  const [state, setState] = useState(emptyCode)
  const inputs = useRef<Array<HTMLInputElement | null>>([])
  const moveFocus = useRef(autoFocus)

  const apply = (action: CodeInputAction, focus = true) => {
    const next = codeInputReducer(state, action)
    if (next === state) return
    moveFocus.current = focus
    setState(next)
    if (codeValue(next) !== codeValue(state)) onChange?.(codeValue(next))
    if (!isCodeComplete(state) && isCodeComplete(next)) onComplete(codeValue(next))
  }

  // A layout effect: focus moves in the same commit as the digits.
  useLayoutEffect(() => {
    if (!moveFocus.current) return
    moveFocus.current = false
    inputs.current[state.focus]?.focus()
  }, [state])

  useImperativeHandle(ref, () => ({
    clear() {
      moveFocus.current = true
      setState(emptyCode())
    },
    focus() {
      inputs.current[state.focus]?.focus()
    },
  }))

  const onInput = (index: number) => (event: ChangeEvent<HTMLInputElement>) => {
    if (busy) return
    const raw = event.target.value
    const old = state.digits[index] ?? ''
    if (raw === '') return apply({ type: 'delete', index })
    // The box's old digit may still be in the value, before or after the new one.
    const typed =
      raw.length > 1 && old && raw.startsWith(old)
        ? raw.slice(old.length)
        : raw.length > 1 && old && raw.endsWith(old)
          ? raw.slice(0, -old.length)
          : raw
    apply({ type: 'type', index, text: typed })
  }

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (busy) return
    if (event.key === 'Backspace') {
      event.preventDefault()
      apply({ type: 'backspace', index })
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault()
      inputs.current[index - 1]?.focus()
    } else if (event.key === 'ArrowRight') {
      event.preventDefault()
      inputs.current[index + 1]?.focus()
    }
  }

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault()
    if (busy) return
    apply({ type: 'paste', index, text: event.clipboardData.getData('text') })
  }

  return (
    <div>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's default styling and layout fight the box row; role=group carries the same semantics */}
      <div
        className="lk-code"
        role="group"
        aria-label="Verification code"
        aria-busy={busy}
        data-status={status}
      >
        {state.digits.map((digit, index) => (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: six fixed boxes; the position is the identity
            key={index}
            ref={(element) => {
              inputs.current[index] = element
            }}
            className="lk-code-box"
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            aria-label={`Digit ${index + 1} of ${CODE_LENGTH}`}
            aria-invalid={status === 'error' || state.error ? true : undefined}
            value={digit}
            readOnly={busy}
            onChange={onInput(index)}
            onKeyDown={onKeyDown(index)}
            onPaste={onPaste(index)}
            onFocus={(event) => {
              event.target.select()
              if (state.focus !== index) apply({ type: 'focus', index }, false)
            }}
          />
        ))}
      </div>
      {state.error && (
        <p className="lk-inline-error lk-code-error" role="alert">
          {errorMessages[state.error].title}
        </p>
      )}
    </div>
  )
}
