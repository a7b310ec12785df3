import { describe, expect, it } from 'vitest'
import {
  callingCodeOf,
  isPhoneCountry,
  normalizePhoneNumber,
  phoneCountries,
  phoneDigits,
  splitPhoneNumber,
  toE164Phone,
} from './phone.ts'
import { phoneNumberSchema, smsInitRequestSchema } from './schemas/sms.ts'

describe('phone numbers (spec 01 §5 "Phone")', () => {
  it('strips non-digits', () => {
    expect(phoneDigits('+1 (415) 555-2671')).toBe('14155552671')
  })

  it('qualifies a national number with the country code and validates it per country', () => {
    expect(toE164Phone('US', '(415) 555-2671')).toBe('+14155552671')
    expect(toE164Phone('GB', '07400 123456')).toBe('+447400123456')
    expect(toE164Phone('FR', '06 12 34 56 78')).toBe('+33612345678')
    expect(toE164Phone('US', '07400 123456')).toBeNull()
    expect(toE164Phone('US', '415555')).toBeNull()
    expect(toE164Phone('US', '')).toBeNull()
    // A full international number typed after the wrong flag is not valid for that country.
    expect(toE164Phone('US', '447400123456')).toBeNull()
  })

  it('normalises international numbers to E.164', () => {
    expect(normalizePhoneNumber('+44 7400 123456')).toBe('+447400123456')
    expect(normalizePhoneNumber('14155552671')).toBe('+14155552671')
    expect(normalizePhoneNumber('+1 415')).toBeNull()
    expect(normalizePhoneNumber('1'.repeat(16))).toBeNull()
  })

  it('lists countries with calling codes', () => {
    const countries = phoneCountries()
    expect(countries.length).toBeGreaterThan(200)
    expect(countries).toContainEqual({ country: 'US', callingCode: '1' })
    expect(callingCodeOf('GB')).toBe('44')
    expect(isPhoneCountry('DE')).toBe(true)
    expect(isPhoneCountry('XX')).toBe(false)
  })

  it('the wire schema accepts E.164 or separated digits, nothing else', () => {
    expect(phoneNumberSchema.safeParse('+1 (415) 555-2671').success).toBe(true)
    expect(phoneNumberSchema.safeParse('14155552671').success).toBe(true)
    expect(phoneNumberSchema.safeParse('').success).toBe(false)
    expect(phoneNumberSchema.safeParse('call me').success).toBe(false)
    expect(phoneNumberSchema.safeParse('+1234567890123456').success).toBe(false)
    expect(smsInitRequestSchema.safeParse({ phoneNumber: '+14155552671' }).success).toBe(true)
  })

  it('splits an international number into country and national digits (prefill)', () => {
    expect(splitPhoneNumber('+447400123456')).toEqual({ country: 'GB', national: '7400123456' })
    expect(splitPhoneNumber('+1 415-555-2671')).toEqual({ country: 'US', national: '4155552671' })
    expect(splitPhoneNumber('+1 000')).toBeNull()
  })
})
