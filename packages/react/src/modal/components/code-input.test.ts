import { describe, expect, it } from 'vitest'
import { codeInputReducer, codeValue, emptyCode, isCodeComplete } from './code-input.ts'

const typeAll = (text: string) =>
  [...text].reduce(
    (state, ch, i) => codeInputReducer(state, { type: 'type', index: i, text: ch }),
    emptyCode(),
  )

describe('codeInputReducer', () => {
  it('accepts a digit and moves focus to the next box', () => {
    const state = codeInputReducer(emptyCode(), { type: 'type', index: 0, text: '4' })
    expect(state.digits[0]).toBe('4')
    expect(state.focus).toBe(1)
    expect(state.error).toBeNull()
  })

  it("refuses anything but digits with 'Code should be numeric'", () => {
    const state = codeInputReducer(emptyCode(), { type: 'type', index: 0, text: 'a' })
    expect(state.digits).toEqual(['', '', '', '', '', ''])
    expect(state.error).toBe('CODE_NOT_NUMERIC')
    // The next good digit clears the message.
    expect(codeInputReducer(state, { type: 'type', index: 0, text: '1' }).error).toBeNull()
  })

  it('removes spaces', () => {
    expect(codeInputReducer(emptyCode(), { type: 'type', index: 0, text: ' ' })).toEqual(
      emptyCode(),
    )
    const pasted = codeInputReducer(emptyCode(), { type: 'paste', index: 0, text: '12 34 56' })
    expect(codeValue(pasted)).toBe('123456')
  })

  it('fills a paste from the current box, at most to the sixth', () => {
    const state = codeInputReducer(emptyCode(), { type: 'paste', index: 2, text: '987654' })
    expect(state.digits).toEqual(['', '', '9', '8', '7', '6'])
    expect(state.focus).toBe(5)
  })

  it('refuses a paste with letters', () => {
    const state = codeInputReducer(emptyCode(), { type: 'paste', index: 0, text: '12a456' })
    expect(codeValue(state)).toBe('')
    expect(state.error).toBe('CODE_NOT_NUMERIC')
  })

  it("refuses more than six digits typed or pasted with 'Passcode must be exactly 6 numbers' (spec 02 §5)", () => {
    const started = typeAll('12')
    for (const type of ['paste', 'type'] as const) {
      const state = codeInputReducer(started, { type, index: 2, text: '1234 567' })
      // Nothing filled: six digits of something else would spend a code attempt.
      expect(state.digits).toEqual(started.digits)
      expect(state.error).toBe('CODE_TOO_LONG')
      expect(isCodeComplete(state)).toBe(false)
    }
    // Six digits, spaces aside, are a code.
    const six = codeInputReducer(emptyCode(), { type: 'paste', index: 0, text: ' 123 456 ' })
    expect(six.error).toBeNull()
    expect(codeValue(six)).toBe('123456')
  })

  it('treats several typed characters (autofill) like a paste', () => {
    const state = codeInputReducer(emptyCode(), { type: 'type', index: 0, text: '123456' })
    expect(isCodeComplete(state)).toBe(true)
  })

  it('Backspace clears the current box and moves back', () => {
    const full = typeAll('123456')
    const state = codeInputReducer(full, { type: 'backspace', index: 5 })
    expect(state.digits).toEqual(['1', '2', '3', '4', '5', ''])
    expect(state.focus).toBe(4)
  })

  it('Backspace on an empty box clears the one before', () => {
    const three = typeAll('123')
    expect(three.focus).toBe(3)
    const state = codeInputReducer(three, { type: 'backspace', index: 3 })
    expect(state.digits).toEqual(['1', '2', '', '', '', ''])
    expect(state.focus).toBe(2)
  })

  it('Backspace on the first box stays there', () => {
    const state = codeInputReducer(typeAll('1'), { type: 'backspace', index: 0 })
    expect(state.focus).toBe(0)
    expect(codeValue(state)).toBe('')
  })

  it('is complete (submit time) only when all six boxes hold digits', () => {
    expect(isCodeComplete(typeAll('12345'))).toBe(false)
    expect(isCodeComplete(typeAll('123456'))).toBe(true)
  })

  it('clear empties every box and focuses the first', () => {
    expect(codeInputReducer(typeAll('123456'), { type: 'clear' })).toEqual(emptyCode())
  })

  it('replaces the digit of a box typed over', () => {
    const state = codeInputReducer(typeAll('123'), { type: 'type', index: 1, text: '9' })
    expect(state.digits.slice(0, 3)).toEqual(['1', '9', '3'])
    expect(state.focus).toBe(2)
  })
})
