import { CODE_LENGTH } from '@latchkey/protocol/constants'

/**
 * The six code boxes as a pure reducer (spec 01 §5 "Code boxes"): numeric
 * only, otherwise 'Code should be numeric'; spaces removed; pasted text fills
 * from the current box (max 6), and more than 6 digits typed or pasted at
 * once is refused with 'Passcode must be exactly 6 numbers' (spec 02 §5);
 * Backspace clears the current box and moves back. The component submits
 * once `isCodeComplete` turns true.
 */
export interface CodeInputState {
  digits: string[]
  /** The box that should hold focus. */
  focus: number
  error: 'CODE_NOT_NUMERIC' | 'CODE_TOO_LONG' | null
}

export type CodeInputAction =
  /** Characters typed into (or auto-filled into) box `index`. */
  | { type: 'type'; index: number; text: string }
  | { type: 'paste'; index: number; text: string }
  | { type: 'backspace'; index: number }
  /** Box `index` was emptied some other way (cut, select + Delete). */
  | { type: 'delete'; index: number }
  | { type: 'focus'; index: number }
  | { type: 'clear' }

export const emptyCode = (): CodeInputState => ({
  digits: Array.from({ length: CODE_LENGTH }, () => ''),
  focus: 0,
  error: null,
})

const last = CODE_LENGTH - 1
const clamp = (index: number) => Math.max(0, Math.min(last, index))

function fill(state: CodeInputState, index: number, text: string): CodeInputState {
  const clean = text.replace(/\s+/g, '')
  if (clean === '') return state
  if (!/^\d+$/.test(clean)) return { ...state, error: 'CODE_NOT_NUMERIC' }
  // Not a code (a phone number, two codes): filling six of its digits would spend an attempt.
  if (clean.length > CODE_LENGTH) return { ...state, error: 'CODE_TOO_LONG' }
  const start = clamp(index)
  const chars = clean.slice(0, CODE_LENGTH - start)
  const digits = [...state.digits]
  for (let i = 0; i < chars.length; i++) digits[start + i] = chars[i] as string
  return { digits, focus: clamp(start + chars.length), error: null }
}

export function codeInputReducer(state: CodeInputState, action: CodeInputAction): CodeInputState {
  switch (action.type) {
    case 'type':
    case 'paste':
      return fill(state, action.index, action.text)
    case 'backspace': {
      const index = clamp(action.index)
      const digits = [...state.digits]
      // An empty box has nothing to clear: Backspace then clears the one before.
      const target = digits[index] ? index : clamp(index - 1)
      digits[target] = ''
      return { digits, focus: clamp(index - 1), error: null }
    }
    case 'delete': {
      const digits = [...state.digits]
      digits[clamp(action.index)] = ''
      return { ...state, digits, focus: clamp(action.index) }
    }
    case 'focus':
      return state.focus === clamp(action.index) ? state : { ...state, focus: clamp(action.index) }
    case 'clear':
      return emptyCode()
  }
}

/** The code as typed so far. */
export const codeValue = (state: CodeInputState) => state.digits.join('')

/** All six boxes hold a digit: time to submit. */
export const isCodeComplete = (state: CodeInputState) =>
  state.digits.length === CODE_LENGTH && state.digits.every((d) => /^\d$/.test(d))
