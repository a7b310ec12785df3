import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EmailForm } from './EmailForm.tsx'

afterEach(cleanup)

const input = () => screen.getByRole('textbox', { name: 'Email address' }) as HTMLInputElement
const submit = () => screen.getByRole('button', { name: 'Submit' }) as HTMLButtonElement
const type = (value: string) => fireEvent.change(input(), { target: { value } })

describe('EmailForm', () => {
  it('is an email field with the placeholder your@email.com', () => {
    render(<EmailForm onSubmit={() => {}} />)
    expect(input().type).toBe('email')
    expect(input().placeholder).toBe('your@email.com')
  })

  it('keeps Submit disabled until the address is valid', () => {
    render(<EmailForm onSubmit={() => {}} />)
    expect(submit().disabled).toBe(true)
    type('alice@')
    expect(submit().disabled).toBe(true)
    expect(screen.queryByRole('alert')).toBeNull()
    type('alice@example.com')
    expect(submit().disabled).toBe(false)
  })

  it('says an invalid address is invalid once the user presses Enter (issue 16, 4c)', () => {
    const onSubmit = vi.fn()
    render(<EmailForm onSubmit={onSubmit} />)
    type('alice@example')
    expect(screen.queryByRole('alert')).toBeNull()
    // A browser submits nothing on Enter while Submit is disabled: the key itself counts.
    fireEvent.keyDown(input(), { key: 'Enter' })
    expect(onSubmit).not.toHaveBeenCalled()
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toBe('Please enter a valid email address.')
    expect(input().getAttribute('aria-invalid')).toBe('true')
    expect(input().getAttribute('aria-describedby')).toBe(alert.id)
    expect(submit().disabled).toBe(true)
    // It follows the address from then on: gone once it is valid.
    type('alice@example.com')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(submit().disabled).toBe(false)
  })

  it('…or leaves the field with it; leaving an empty field says nothing', () => {
    render(<EmailForm onSubmit={() => {}} />)
    fireEvent.blur(input())
    expect(screen.queryByRole('alert')).toBeNull()
    type('not-an-email')
    fireEvent.blur(input())
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.')
  })

  it('refuses a plus-address inline when the app disables them', () => {
    render(<EmailForm onSubmit={() => {}} disablePlusEmails />)
    type('alice+news@example.com')
    expect(screen.getByRole('alert').textContent).toBe(
      "Please enter a valid email address without a '+'.",
    )
    expect(submit().disabled).toBe(true)
  })

  it('accepts a plus-address when the app allows them', () => {
    render(<EmailForm onSubmit={() => {}} />)
    type('alice+news@example.com')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(submit().disabled).toBe(false)
  })

  it('submits the trimmed address on Enter', () => {
    const onSubmit = vi.fn()
    render(<EmailForm onSubmit={onSubmit} />)
    type('  alice@example.com ')
    fireEvent.submit(input().form as HTMLFormElement)
    expect(onSubmit).toHaveBeenCalledExactlyOnceWith('alice@example.com')
  })

  it('disables Submit while submitting', () => {
    const onSubmit = vi.fn()
    render(<EmailForm onSubmit={onSubmit} submitting defaultValue="alice@example.com" />)
    expect(submit().disabled).toBe(true)
    fireEvent.submit(input().form as HTMLFormElement)
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('shows an error from sending the code from the catalogue', () => {
    render(<EmailForm onSubmit={() => {}} error="TOO_MANY_REQUESTS" />)
    expect(screen.getByRole('alert').textContent).toBe(
      'Too many requests. Please wait before trying again.',
    )
  })
})
