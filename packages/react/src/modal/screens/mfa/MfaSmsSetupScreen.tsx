import { useState } from 'react'
import { PhoneIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { PhoneForm } from '../../methods/sms/PhoneForm.tsx'
import { mfaErrorMessage } from './mfa-errors.ts'

export interface MfaSmsSetupScreenProps {
  /** ISO 3166 country selected at first (the config's `intl.defaultCountry`); default US. */
  defaultCountry?: string
  /** The number typed before (E.164), when coming back from the code screen. */
  defaultPhone?: string
  /** Sends a code to the number (E.164); resolving moves on to the code screen. */
  onSubmit(phoneNumber: string): Promise<void>
  onBack?(): void
}

/**
 * Spec 02 "SMS enrollment": 'Set up SMS verification' with the phone entry
 * of the login screens (country code, per-country validation) and its
 * carrier note ('Message and data rates may apply.'). A refusal (region,
 * invalid number, the phone is a login method) shows under the field.
 */
export function MfaSmsSetupScreen({
  defaultCountry,
  defaultPhone,
  onSubmit,
  onBack,
}: MfaSmsSetupScreenProps) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const submit = async (phone: string) => {
    setBusy(true)
    setError(null)
    try {
      await onSubmit(phone)
    } catch (cause) {
      setError(mfaErrorMessage(cause))
      setBusy(false)
    }
  }

  return (
    <ScreenLayout
      title="Set up SMS verification"
      subtitle="Enter the phone number to text your verification codes to."
      media={
        <StatusIcon tone="neutral">
          <PhoneIcon />
        </StatusIcon>
      }
      onBack={onBack}
    >
      <PhoneForm
        defaultCountry={defaultCountry}
        defaultValue={defaultPhone}
        whatsapp={false}
        busy={busy}
        error={error}
        onSubmit={(phone) => void submit(phone)}
        onEdit={() => setError(null)}
      />
    </ScreenLayout>
  )
}
