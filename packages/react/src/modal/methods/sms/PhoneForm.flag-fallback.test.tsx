import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { drawsFlags, flagOf, forgetFlagEmojiSupport } from './flags.ts'
import { PhoneForm } from './PhoneForm.tsx'

// Flag emoji draw as empty boxes where the system has no emoji font with
// flags: the phone form shows the ISO code in a badge there (issue 16, item 7d).

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  forgetFlagEmojiSupport()
})

const base = { whatsapp: false, busy: false, error: null, onSubmit: () => {} }
const country = () => screen.getByRole('combobox', { name: 'Country code' }) as HTMLSelectElement
const face = () => screen.getByTestId('country-face')
const US = flagOf('US')

/** A canvas whose text widths are those of a platform with (or without) flag glyphs. */
function platform(withFlags: boolean) {
  const measureText = (text: string) => ({
    // One regional indicator: 40 px; a pair: one flag glyph, or two boxes side by side.
    width: [...text].length === 1 ? 40 : withFlags ? 40 : 80,
  })
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    font: '',
    measureText,
  } as unknown as CanvasRenderingContext2D)
}

describe('drawsFlags', () => {
  it('is true when a flag pair is about one glyph wide, false when it is two', () => {
    expect(drawsFlags((text) => ([...text].length === 1 ? 40 : 41))).toBe(true)
    expect(drawsFlags((text) => ([...text].length === 1 ? 40 : 80))).toBe(false)
    expect(drawsFlags((text) => ([...text].length === 1 ? 0 : 0))).toBe(false)
    expect(drawsFlags(null)).toBe(false)
  })
})

describe('the country picker', () => {
  it('shows the flag where the platform draws flags', () => {
    platform(true)
    render(<PhoneForm {...base} />)
    expect(face().textContent).toBe(`${US}+1`)
    expect(face().querySelector('.lk-country-code')).toBeNull()
    expect(country().selectedOptions[0]?.textContent).toBe(`${US} +1`)
  })

  it('shows the ISO code in a badge, and lists codes, where it does not', () => {
    platform(false)
    render(<PhoneForm {...base} />)
    expect(face().querySelector('.lk-country-code')?.textContent).toBe('US')
    expect(face().textContent).not.toContain(US)
    expect(country().selectedOptions[0]?.textContent).toBe('US +1')
    const options = [...country().options].map((o) => o.textContent ?? '')
    expect(options.some((text) => /[\u{1F1E6}-\u{1F1FF}]/u.test(text))).toBe(false)

    fireEvent.change(country(), { target: { value: 'GB' } })
    expect(face().querySelector('.lk-country-code')?.textContent).toBe('GB')
    expect(face().textContent).toBe('GB+44')
  })

  it('measures once, not on every render', () => {
    platform(true)
    const getContext = vi.mocked(HTMLCanvasElement.prototype.getContext)
    render(<PhoneForm {...base} />)
    cleanup()
    render(<PhoneForm {...base} />)
    expect(getContext).toHaveBeenCalledOnce()
  })

  it('uses the badge where there is no canvas at all', () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null)
    render(<PhoneForm {...base} />)
    expect(face().querySelector('.lk-country-code')?.textContent).toBe('US')
  })
})
