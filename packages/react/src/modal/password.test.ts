import { describe, expect, it, vi } from 'vitest'
import {
  GENERATED_PASSWORD_LENGTH,
  generatePassword,
  PASSWORD_ALPHABET,
  passwordStrength,
  validatePassword,
} from './password.ts'

describe('validatePassword (spec 02 §5)', () => {
  it('accepts letters, digits and !@#$%^&*()-_+. from 6 characters on', () => {
    expect(validatePassword('abc123')).toEqual({ valid: true })
    expect(validatePassword('Aa9!@#$%^&*()-_+.')).toEqual({ valid: true })
  })

  it("refuses fewer than 6 characters with 'Password must be at least 6 characters'", () => {
    for (const short of ['', 'a', 'abcde'])
      expect(validatePassword(short)).toEqual({
        valid: false,
        message: 'Password must be at least 6 characters',
      })
  })

  it('lists each invalid character once, a space as SPACE', () => {
    expect(validatePassword('pass word~~ok')).toEqual({
      valid: false,
      message: 'Invalid characters used ( SPACE ~ )',
    })
    expect(validatePassword('é')).toEqual({
      valid: false,
      message: 'Invalid characters used ( é )',
    })
  })
})

describe('passwordStrength (spec 02 §5: above 0.5 Medium, above 0.9 Strong)', () => {
  it('rates short, invalid, repetitive or single-class passwords Weak', () => {
    for (const weak of ['Ab1!x', 'aaaaaaaa', 'password', 'abcdefgh', 'pass word 123 456'])
      expect(passwordStrength(weak), weak).toBe('Weak')
  })

  it('rates mixed passwords Medium and long varied ones Strong', () => {
    expect(passwordStrength('Password1')).toBe('Medium')
    expect(passwordStrength('Tr0ub4dor&3')).toBe('Medium')
    expect(passwordStrength('Xk9!mP2#qL5$wR8')).toBe('Strong')
  })
})

describe('generatePassword', () => {
  it('draws from crypto.getRandomValues and makes Strong passwords of allowed characters only', () => {
    const spy = vi.spyOn(globalThis.crypto, 'getRandomValues')
    for (let i = 0; i < 50; i++) {
      const password = generatePassword()
      expect(password).toHaveLength(GENERATED_PASSWORD_LENGTH)
      expect(validatePassword(password)).toEqual({ valid: true })
      expect(Array.from(password).every((c) => PASSWORD_ALPHABET.includes(c))).toBe(true)
      expect(passwordStrength(password)).toBe('Strong')
    }
    expect(spy).toHaveBeenCalled()
    spy.mockRestore()
  })

  it('does not repeat itself', () => {
    expect(new Set(Array.from({ length: 20 }, () => generatePassword())).size).toBe(20)
  })
})
