import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CARRIER_FEE_NOTE, PhoneForm } from './PhoneForm.tsx'

afterEach(cleanup)

const input = () => screen.getByRole('textbox', { name: 'Phone number' }) as HTMLInputElement
const country = () => screen.getByRole('combobox', { name: 'Country code' }) as HTMLSelectElement
const submit = () => screen.getByRole('button', { name: /Continue with/ }) as HTMLButtonElement
const type = (value: string) => fireEvent.change(input(), { target: { value } })

const base = { whatsapp: false, busy: false, error: null, onSubmit: () => {} }

describe('PhoneForm', () => {
  it('defaults to the US, a tel field, and says Continue with SMS with the carrier-fee note', () => {
    render(<PhoneForm {...base} />)
    expect(country().value).toBe('US')
    // happy-dom has no canvas to measure a flag with: the ISO code (PhoneForm.flag-fallback.test.tsx).
    expect(country().selectedOptions[0]?.textContent).toBe('US +1')
    expect(input().type).toBe('tel')
    expect(submit().textContent).toBe('Continue with SMS')
    expect(screen.getByText(CARRIER_FEE_NOTE)).toBeTruthy()
  })

  it('says Continue with WhatsApp when the app uses WhatsApp', () => {
    render(<PhoneForm {...base} whatsapp />)
    expect(submit().textContent).toBe('Continue with WhatsApp')
  })

  it('starts on defaultCountry', () => {
    render(<PhoneForm {...base} defaultCountry="gb" />)
    expect(country().value).toBe('GB')
    cleanup()
    render(<PhoneForm {...base} defaultCountry="XX" />)
    expect(country().value).toBe('US')
  })

  it('keeps digits only', () => {
    render(<PhoneForm {...base} />)
    type('(415) 555-2671 ext')
    expect(input().value).toBe('4155552671')
  })

  it('keeps Submit disabled until the number is valid for the chosen country', () => {
    const onSubmit = vi.fn()
    render(<PhoneForm {...base} onSubmit={onSubmit} />)
    expect(submit().disabled).toBe(true)
    type('41555')
    expect(submit().disabled).toBe(true)
    type('4155552671')
    expect(submit().disabled).toBe(false)
    fireEvent.click(submit())
    expect(onSubmit).toHaveBeenCalledWith('+14155552671')
  })

  it('validates per country and qualifies with its calling code', () => {
    const onSubmit = vi.fn()
    render(<PhoneForm {...base} onSubmit={onSubmit} />)
    type('07400123456')
    expect(submit().disabled).toBe(true) // not a US number
    fireEvent.change(country(), { target: { value: 'GB' } })
    expect(submit().disabled).toBe(false)
    fireEvent.submit(input().form as HTMLFormElement)
    expect(onSubmit).toHaveBeenCalledWith('+447400123456')
  })

  it('is disabled while busy, and does not submit', () => {
    const onSubmit = vi.fn()
    render(<PhoneForm {...base} busy onSubmit={onSubmit} />)
    type('4155552671')
    const button = screen.getByRole('button') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    fireEvent.submit(input().form as HTMLFormElement)
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('shows an error in the inline slot and tells the caller about edits', () => {
    const onEdit = vi.fn()
    render(
      <PhoneForm
        {...base}
        error="SMS authentication from this region is not available"
        onEdit={onEdit}
      />,
    )
    expect(screen.getByRole('alert').textContent).toBe(
      'SMS authentication from this region is not available',
    )
    expect(input().getAttribute('aria-invalid')).toBe('true')
    type('4')
    expect(onEdit).toHaveBeenCalled()
  })

  it('prefills a number in its own country, ready to submit', () => {
    const onSubmit = vi.fn()
    render(<PhoneForm {...base} onSubmit={onSubmit} defaultValue="+447400123456" />)
    expect(country().value).toBe('GB')
    expect(input().value).toBe('7400123456')
    fireEvent.click(submit())
    expect(onSubmit).toHaveBeenCalledWith('+447400123456')
  })

  it("shows the 'Recent' chip while the field is empty", () => {
    render(<PhoneForm {...base} recent />)
    expect(screen.getByText('Recent')).toBeTruthy()
    type('415')
    expect(screen.queryByText('Recent')).toBeNull()
  })
})
