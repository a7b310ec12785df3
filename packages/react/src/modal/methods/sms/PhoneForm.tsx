import {
  type CountryCode,
  DEFAULT_PHONE_COUNTRY,
  isPhoneCountry,
  MAX_PHONE_DIGITS,
  phoneCountries,
  phoneDigits,
  splitPhoneNumber,
  toE164Phone,
} from '@latchkey/protocol/phone'
import { useId, useMemo, useState } from 'react'
import { ChevronDownIcon } from '../../components/icons.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { canDrawFlagEmoji, flagOf } from './flags.ts'

export interface PhoneFormProps {
  /** ISO 3166 country selected at first (the config's `intl.defaultCountry`); default US. */
  defaultCountry?: string
  /** The app sends codes by WhatsApp (`whatsapp_enabled`): the button says so. */
  whatsapp: boolean
  /** A code is being sent: Submit is disabled and shows a spinner. */
  busy: boolean
  /** A message to show under the field (e.g. the server's region refusal), or null. */
  error: string | null
  /** Called with the number in E.164, e.g. '+14155552671'. */
  onSubmit(phoneE164: string): void
  /** Called when the user edits the number or the country (the caller may clear `error`). */
  onEdit?(): void
  autoFocus?: boolean
  /** A number to start with, in E.164 (`prefill` of type phone); its country wins. */
  defaultValue?: string
  /** Draws the 'Recent' chip: this browser last logged in by phone. */
  recent?: boolean
}

/** The spec's note on the phone screen (spec 01 §2 "Phone input"). */
export const CARRIER_FEE_NOTE = 'Message and data rates may apply.'

function countryNames(): (country: string) => string {
  try {
    const names = new Intl.DisplayNames(undefined, { type: 'region' })
    return (country) => names.of(country) ?? country
  } catch {
    return (country) => country
  }
}

/**
 * The phone input of spec 01 §2 and §5: a country-code dropdown (US unless
 * `defaultCountry`), a tel field that keeps digits only, validated for the
 * chosen country (libphonenumber-js, small metadata); Submit is disabled
 * while the number is invalid or a code is being sent. The label reads
 * 'Continue with WhatsApp' when the app uses WhatsApp, else 'Continue with SMS'.
 * Each country shows its flag, or, where the platform has no flag emoji, its
 * ISO code in a badge (the native picker lists 'US +1').
 */
export function PhoneForm({
  defaultCountry,
  whatsapp,
  busy,
  error,
  onSubmit,
  onEdit,
  autoFocus = true,
  defaultValue,
  recent = false,
}: PhoneFormProps) {
  const prefill = defaultValue ? splitPhoneNumber(defaultValue) : null
  const initial: CountryCode =
    prefill?.country ??
    (isPhoneCountry(defaultCountry?.toUpperCase())
      ? (defaultCountry?.toUpperCase() as CountryCode)
      : DEFAULT_PHONE_COUNTRY)
  const [country, setCountry] = useState<CountryCode>(initial)
  const [digits, setDigits] = useState(prefill?.national ?? '')
  const messageId = useId()
  const noteId = useId()
  const options = useMemo(() => {
    const name = countryNames()
    return phoneCountries()
      .map((c) => ({ ...c, name: name(c.country) }))
      .sort((a, b) => a.name.localeCompare(b.name))
  }, [])
  const [flags] = useState(canDrawFlagEmoji)
  const selected = options.find((c) => c.country === country)
  const e164 = digits === '' ? null : toE164Phone(country, digits)
  const canSubmit = e164 !== null && !busy
  const label = whatsapp ? 'Continue with WhatsApp' : 'Continue with SMS'

  return (
    <form
      className="lk-phone-form lk-stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (canSubmit && e164) onSubmit(e164)
      }}
    >
      <div className="lk-input-wrap" data-invalid={error ? true : undefined}>
        {/* The native picker, transparent over its face: the face can draw a badge, an option cannot. */}
        <span className="lk-phone-country">
          <span className="lk-phone-country-face" aria-hidden="true" data-testid="country-face">
            {flags ? (
              <span className="lk-flag">{flagOf(country)}</span>
            ) : (
              <span className="lk-country-code">{country}</span>
            )}
            {selected && `+${selected.callingCode}`}
            <ChevronDownIcon />
          </span>
          <select
            className="lk-phone-country-select"
            aria-label="Country code"
            title={selected?.name}
            value={country}
            onChange={(event) => {
              if (isPhoneCountry(event.target.value)) setCountry(event.target.value)
              onEdit?.()
            }}
          >
            {options.map((c) => (
              <option key={c.country} value={c.country} title={c.name}>
                {`${flags ? flagOf(c.country) : c.country} +${c.callingCode}`}
              </option>
            ))}
          </select>
        </span>
        <input
          className="lk-input"
          type="tel"
          name="phone"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder="Phone number"
          aria-label="Phone number"
          autoFocus={autoFocus}
          value={digits}
          maxLength={MAX_PHONE_DIGITS}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${messageId} ${noteId}` : noteId}
          onChange={(event) => {
            setDigits(phoneDigits(event.target.value).slice(0, MAX_PHONE_DIGITS))
            onEdit?.()
          }}
        />
        {recent && digits === '' && <span className="lk-chip">Recent</span>}
      </div>
      {error && (
        <p className="lk-inline-error" id={messageId} role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="lk-btn lk-btn-primary" disabled={!canSubmit}>
        {busy ? <Spinner size="sm" /> : label}
      </button>
      <p className="lk-legal" id={noteId}>
        {CARRIER_FEE_NOTE}
      </p>
    </form>
  )
}
