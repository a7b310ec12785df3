import { LatchkeyError } from '@latchkey/core'
import { describe, expect, it } from 'vitest'
import { formatWait, isBlockingMfaError, mfaErrorMessage, retryAfterSeconds } from './mfa-errors.ts'

const maxAttempts = (options: ConstructorParameters<typeof LatchkeyError>[2]) =>
  new LatchkeyError('MFA_MAX_ATTEMPTS', undefined, options)

describe('retryAfterSeconds', () => {
  it('reads the error, the whole server body, or its details', () => {
    expect(retryAfterSeconds(maxAttempts({ retryAfter: 60 }))).toBe(60)
    expect(
      retryAfterSeconds(
        maxAttempts({
          details: { code: 'MFA_MAX_ATTEMPTS', message: '…', details: { retry_after: 900 } },
        }),
      ),
    ).toBe(900)
    expect(retryAfterSeconds(maxAttempts({ details: { retry_after: 120 } }))).toBe(120)
    expect(retryAfterSeconds(maxAttempts({ details: { retry_after: '45' } }))).toBe(45)
  })

  it('is undefined for anything else', () => {
    for (const details of [
      undefined,
      null,
      'x',
      42,
      [],
      { retry_after: -1 },
      { retry_after: 'soon' },
    ]) {
      expect(retryAfterSeconds(maxAttempts({ details }))).toBeUndefined()
    }
    expect(retryAfterSeconds(new Error('x'))).toBeUndefined()
    expect(retryAfterSeconds({ details: { retry_after: 5 } })).toBeUndefined()
  })
})

describe('formatWait', () => {
  it('says seconds, minutes or hours, rounded up', () => {
    expect(formatWait(45)).toBe('45 seconds')
    expect(formatWait(60)).toBe('1 minute')
    expect(formatWait(61)).toBe('2 minutes')
    expect(formatWait(900)).toBe('15 minutes')
    expect(formatWait(7200)).toBe('2 hours')
  })
})

describe('mfaErrorMessage (spec 02 §8)', () => {
  it("keeps the spec's wording when the wait is within its hint", () => {
    const spec =
      'You have exceeded the maximum number of attempts. Please close this window and try again in 10 seconds.'
    expect(mfaErrorMessage(new LatchkeyError('MFA_MAX_ATTEMPTS'))).toBe(spec)
    expect(mfaErrorMessage(maxAttempts({ retryAfter: 10 }))).toBe(spec)
  })

  it('says the real wait when the server gave a longer one', () => {
    expect(mfaErrorMessage(maxAttempts({ details: { retry_after: 900 } }))).toBe(
      'You have exceeded the maximum number of attempts. Please close this window and try again in 15 minutes.',
    )
    expect(mfaErrorMessage(new LatchkeyError('MFA_TIMEOUT', undefined, { retryAfter: 31 }))).toBe(
      'You have exceeded the time limit for code entry. Please try again in 31 seconds.',
    )
  })

  it('adds the wait to a message without one', () => {
    expect(
      mfaErrorMessage(new LatchkeyError('TOO_MANY_REQUESTS', undefined, { retryAfter: 120 })),
    ).toMatch(/ Try again in 2 minutes\.$/)
  })

  it("reads anything unknown as the catalogue's 'Something went wrong'", () => {
    expect(mfaErrorMessage(new TypeError('boom'))).toMatch(/^Something went wrong/)
  })

  it('blocks on too many attempts and the time limit only', () => {
    expect(isBlockingMfaError(new LatchkeyError('MFA_MAX_ATTEMPTS'))).toBe(true)
    expect(isBlockingMfaError(new LatchkeyError('MFA_TIMEOUT'))).toBe(true)
    expect(isBlockingMfaError(new LatchkeyError('MFA_INVALID_CODE'))).toBe(false)
  })
})
