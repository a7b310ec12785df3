/**
 * Phone numbers for SMS/WhatsApp login (spec 01 §5 "Phone"): digits only,
 * qualified with a country code, validated per country, E.164 as the
 * identity key. Uses libphonenumber-js's `min` metadata (the small one, fit
 * for the browser): per-country lengths and prefixes. The server checks
 * again with the full metadata before it sends anything.
 */
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min'

export type { CountryCode }

/** Default country of the phone input (spec 01 §9). */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'US'

/** The longest E.164 number is 15 digits; anything longer is refused before parsing. */
export const MAX_PHONE_DIGITS = 15

/** Strips everything but ASCII digits ("(415) 555-0123" → "4155550123"). */
export function phoneDigits(value: string): string {
  return value.replace(/\D+/g, '')
}

/** True when `value` is an ISO 3166-1 alpha-2 code libphonenumber-js knows. */
export function isPhoneCountry(value: unknown): value is CountryCode {
  return typeof value === 'string' && (getCountries() as string[]).includes(value)
}

export interface PhoneCountry {
  /** ISO 3166-1 alpha-2, e.g. 'US'. */
  country: CountryCode
  /** Country calling code without '+', e.g. '1'. */
  callingCode: string
}

/** Every country with its calling code, in ISO order (the dropdown names them with Intl.DisplayNames). */
export function phoneCountries(): PhoneCountry[] {
  return getCountries().map((country) => ({
    country,
    callingCode: getCountryCallingCode(country),
  }))
}

/** The calling code of `country` without '+' ('US' → '1'). */
export function callingCodeOf(country: CountryCode): string {
  return getCountryCallingCode(country)
}

/**
 * The E.164 form of a national number typed for `country` (non-digits
 * stripped, a national trunk prefix understood), or null when it is not a
 * valid number of that country.
 *
 * @example
 * toE164Phone('US', '(415) 555-0132') // '+14155550132'
 * toE164Phone('GB', '07400 123456') // '+447400123456'
 */
export function toE164Phone(country: CountryCode, national: string): string | null {
  const digits = phoneDigits(national)
  if (digits.length === 0 || digits.length > MAX_PHONE_DIGITS) return null
  const parsed = parsePhoneNumberFromString(digits, country)
  if (!parsed?.isValid()) return null
  // A number typed for one country that parses as another (e.g. a full
  // international number typed after the wrong flag) is not "valid for the country".
  if (parsed.countryCallingCode !== getCountryCallingCode(country)) return null
  return parsed.number
}

/**
 * Normalises an international number ("+1 415-555-0132", "14155550132") to
 * E.164, or null when it is not valid. Digits only: every non-digit is
 * stripped, and the digits must start with the country calling code.
 */
export function normalizePhoneNumber(value: string): string | null {
  const digits = phoneDigits(value)
  if (digits.length === 0 || digits.length > MAX_PHONE_DIGITS) return null
  const parsed = parsePhoneNumberFromString(`+${digits}`)
  return parsed?.isValid() ? parsed.number : null
}

/**
 * An international number split for the phone input: its country and the
 * national digits; null when it is not a valid number of a known country.
 *
 * @example
 * splitPhoneNumber('+447400123456') // { country: 'GB', national: '7400123456' }
 */
export function splitPhoneNumber(value: string): { country: CountryCode; national: string } | null {
  const e164 = normalizePhoneNumber(value)
  const parsed = e164 ? parsePhoneNumberFromString(e164) : undefined
  if (!parsed?.country) return null
  return { country: parsed.country, national: String(parsed.nationalNumber) }
}
