import { RECOVERY_PASSWORD_MIN_LENGTH } from '@latchkey/core'
import {
  PASSWORD_STRENGTH_MEDIUM,
  PASSWORD_STRENGTH_MIN_LENGTH,
  PASSWORD_STRENGTH_STRONG,
} from '@latchkey/protocol/constants'
import { errorMessages } from '@latchkey/protocol/errors'

/**
 * Spec 02 §5: the characters a recovery password may use. ASCII only, so the
 * same password can be typed on any keyboard of any new device.
 */
export const PASSWORD_SYMBOLS = '!@#$%^&*()-_+.'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const UPPER = LOWER.toUpperCase()
const DIGITS = '0123456789'
export const PASSWORD_ALPHABET = LOWER + UPPER + DIGITS + PASSWORD_SYMBOLS
const CLASSES = [LOWER, UPPER, DIGITS, PASSWORD_SYMBOLS]

export type PasswordValidation = { valid: true } | { valid: false; message: string }

/** Spec 02 §5's wording; the offending characters take the place of the dots. */
const INVALID_CHARACTERS = 'Invalid characters used ( ... )'

/**
 * Spec 02 §5: 'Invalid characters used ( … )' listing each offending
 * character once (a space as SPACE), else 'Password must be at least 6
 * characters'.
 */
export function validatePassword(password: string): PasswordValidation {
  const invalid = [...new Set(Array.from(password).filter((c) => !PASSWORD_ALPHABET.includes(c)))]
  if (invalid.length > 0)
    return {
      valid: false,
      // A function, so no character is read as a `$` replacement pattern.
      message: INVALID_CHARACTERS.replace('...', () =>
        invalid.map((c) => (c === ' ' ? 'SPACE' : c)).join(' '),
      ),
    }
  if (password.length < RECOVERY_PASSWORD_MIN_LENGTH)
    return {
      valid: false,
      message: errorMessages.PASSWORD_TOO_SHORT.title,
    }
  return { valid: true }
}

export type PasswordStrength = 'Weak' | 'Medium' | 'Strong'

// The score's entropy part is full at this many bits (about 16 varied characters).
const ENTROPY_TARGET_BITS = 64

/**
 * A 0–1 score from length (full at 8), character classes used (of 4) and the
 * password's own Shannon entropy, so 'aaaaaaaa' scores lower than 'abcdefgh'.
 */
export function passwordScore(password: string): number {
  if (!validatePassword(password).valid) return 0
  const chars = Array.from(password)
  const counts = new Map<string, number>()
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1)
  let bitsPerChar = 0
  for (const n of counts.values()) bitsPerChar -= (n / chars.length) * Math.log2(n / chars.length)
  const length = Math.min(chars.length / PASSWORD_STRENGTH_MIN_LENGTH, 1)
  const classes = CLASSES.filter((set) => chars.some((c) => set.includes(c))).length / 4
  const entropy = Math.min((bitsPerChar * chars.length) / ENTROPY_TARGET_BITS, 1)
  return 0.25 * length + 0.25 * classes + 0.5 * entropy
}

/**
 * Spec 02 §5: Weak, Medium (score above 0.5) or Strong (above 0.9). An invalid
 * password, or one shorter than 8 characters, is Weak.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length < PASSWORD_STRENGTH_MIN_LENGTH) return 'Weak'
  const score = passwordScore(password)
  return score > PASSWORD_STRENGTH_STRONG
    ? 'Strong'
    : score > PASSWORD_STRENGTH_MEDIUM
      ? 'Medium'
      : 'Weak'
}

/** A uniform index below `n` from crypto.getRandomValues (rejection sampling: no modulo bias). */
function randomIndex(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n
  const buffer = new Uint32Array(1)
  for (;;) {
    globalThis.crypto.getRandomValues(buffer)
    const value = buffer[0] as number
    if (value < limit) return value % n
  }
}

export const GENERATED_PASSWORD_LENGTH = 20

/**
 * A random password of the allowed characters that rates Strong and uses
 * every character class (about 125 bits).
 */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  for (;;) {
    let password = ''
    for (let i = 0; i < length; i++)
      password += PASSWORD_ALPHABET[randomIndex(PASSWORD_ALPHABET.length)]
    const everyClass = CLASSES.every((set) => Array.from(password).some((c) => set.includes(c)))
    if (everyClass && passwordStrength(password) === 'Strong') return password
  }
}
