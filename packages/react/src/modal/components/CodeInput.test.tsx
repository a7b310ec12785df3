import { act, cleanup, createEvent, fireEvent, render, screen } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CodeInput, type CodeInputHandle } from './CodeInput.tsx'

afterEach(cleanup)

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[]

function paste(element: HTMLElement, text: string) {
  const event = createEvent.paste(element, { clipboardData: { getData: () => text } })
  fireEvent(element, event)
}

describe('CodeInput', () => {
  it('draws six labelled numeric boxes, the first for one-time codes', () => {
    render(<CodeInput onComplete={() => {}} />)
    const inputs = boxes()
    expect(inputs).toHaveLength(6)
    inputs.forEach((input, i) => {
      expect(input.getAttribute('aria-label')).toBe(`Digit ${i + 1} of 6`)
      expect(input.getAttribute('inputmode')).toBe('numeric')
    })
    expect(inputs[0]?.getAttribute('autocomplete')).toBe('one-time-code')
    expect(document.activeElement).toBe(inputs[0])
  })

  it('moves focus as digits are typed and submits once all six are in', () => {
    const onComplete = vi.fn()
    render(<CodeInput onComplete={onComplete} />)
    for (const [i, digit] of [...'12345'].entries()) {
      fireEvent.change(boxes()[i] as HTMLInputElement, { target: { value: digit } })
    }
    expect(document.activeElement).toBe(boxes()[5])
    expect(onComplete).not.toHaveBeenCalled()
    fireEvent.change(boxes()[5] as HTMLInputElement, { target: { value: '6' } })
    expect(onComplete).toHaveBeenCalledExactlyOnceWith('123456')
  })

  it("shows 'Code should be numeric' for a letter", () => {
    render(<CodeInput onComplete={() => {}} />)
    fireEvent.change(boxes()[0] as HTMLInputElement, { target: { value: 'x' } })
    expect(screen.getByRole('alert').textContent).toBe('Code should be numeric')
    expect(boxes()[0]?.value).toBe('')
  })

  it("says 'Passcode must be exactly 6 numbers' for a longer paste, and submits nothing", () => {
    const onComplete = vi.fn()
    render(<CodeInput onComplete={onComplete} />)
    paste(boxes()[0] as HTMLInputElement, '12345678')
    expect(screen.getByRole('alert').textContent).toBe('Passcode must be exactly 6 numbers')
    expect(boxes().every((b) => b.value === '')).toBe(true)
    expect(onComplete).not.toHaveBeenCalled()
    // The right code clears the message.
    paste(boxes()[0] as HTMLInputElement, '123456')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(onComplete).toHaveBeenCalledWith('123456')
  })

  it('fills a paste from the focused box and submits a full code', () => {
    const onComplete = vi.fn()
    render(<CodeInput onComplete={onComplete} />)
    paste(boxes()[0] as HTMLInputElement, ' 654 321 ')
    expect(boxes().map((b) => b.value)).toEqual(['6', '5', '4', '3', '2', '1'])
    expect(onComplete).toHaveBeenCalledWith('654321')
  })

  it('Backspace clears the current box and focuses the previous one', () => {
    render(<CodeInput onComplete={() => {}} />)
    paste(boxes()[0] as HTMLInputElement, '123')
    expect(document.activeElement).toBe(boxes()[3])
    fireEvent.keyDown(boxes()[3] as HTMLInputElement, { key: 'Backspace' })
    expect(boxes().map((b) => b.value)).toEqual(['1', '2', '', '', '', ''])
    expect(document.activeElement).toBe(boxes()[2])
  })

  it('clear() empties the boxes and focuses the first', () => {
    const ref = createRef<CodeInputHandle>()
    render(<CodeInput ref={ref} onComplete={() => {}} />)
    paste(boxes()[0] as HTMLInputElement, '123456')
    act(() => ref.current?.clear())
    expect(boxes().every((b) => b.value === '')).toBe(true)
    expect(document.activeElement).toBe(boxes()[0])
  })

  it('ignores input while busy', () => {
    const onComplete = vi.fn()
    render(<CodeInput onComplete={onComplete} busy />)
    paste(boxes()[0] as HTMLInputElement, '123456')
    expect(onComplete).not.toHaveBeenCalled()
  })
})
