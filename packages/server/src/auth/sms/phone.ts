import { type CountryCode, getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { ApiError } from '../../errors.ts'

/** A phone number the server accepted. */
export interface ParsedPhone {
  /** E.164, the identity key of a phone account. */
  e164: string
  /** ISO 3166 country, when the number belongs to one (not for non-geographic +800 numbers). */
  country: CountryCode | undefined
  /** Calling code without '+'. */
  callingCode: string
}

const MAX_DIGITS = 15

/**
 * Strict parse with libphonenumber-js's full metadata: non-digits stripped,
 * the digits read as an international number (country calling code first)
 * and validated for their country. Throws INVALID_PHONE_NUMBER.
 */
export function parsePhone(value: string): ParsedPhone {
  const digits = value.replace(/\D+/g, '')
  if (digits.length === 0 || digits.length > MAX_DIGITS) throw new ApiError('INVALID_PHONE_NUMBER')
  const parsed = parsePhoneNumberFromString(`+${digits}`)
  if (!parsed?.isValid()) throw new ApiError('INVALID_PHONE_NUMBER')
  return { e164: parsed.number, country: parsed.country, callingCode: parsed.countryCallingCode }
}

/**
 * The E.164 key of a number the user already has (unlink, the old number of
 * an update): digits only, no validation, so a number stored before a
 * metadata change can still be removed.
 */
export function phoneKey(value: string): string {
  const digits = value.replace(/\D+/g, '')
  if (digits.length === 0 || digits.length > MAX_DIGITS) throw new ApiError('INVALID_PHONE_NUMBER')
  return `+${digits}`
}

/**
 * Checks the `smsAllowedRegions` option: each entry an ISO 3166 country
 * ('US', case-insensitive) or a calling code ('1', '+44'). Returns the
 * normalised list ('US', '44'), or null for "all regions".
 */
export function resolveSmsAllowedRegions(regions: string[] | undefined): string[] | null {
  if (!regions) return null
  const countries = new Set<string>(getCountries())
  return regions.map((raw) => {
    const entry = raw.trim()
    if (/^\+?\d{1,3}$/.test(entry)) return entry.replace('+', '')
    if (countries.has(entry.toUpperCase())) return entry.toUpperCase()
    throw new Error(
      `smsAllowedRegions: "${raw}" is neither an ISO 3166 country code nor a calling code`,
    )
  })
}

/** Refuses a number from outside the allowed regions (spec 01 §8 "Region"). */
export function assertRegionAllowed(allowed: string[] | null, phone: ParsedPhone): void {
  if (!allowed) return
  if (phone.country && allowed.includes(phone.country)) return
  if (allowed.includes(phone.callingCode)) return
  throw new ApiError('SMS_REGION_NOT_ALLOWED')
}
