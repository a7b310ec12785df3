import { useState } from 'react'
import { KeyIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { mfaErrorMessage } from './mfa-errors.ts'

export interface MfaPasskeySetupScreenProps {
  /** Links a new passkey and enables it for verification; resolving ends this screen. */
  onAdd(): Promise<void>
  onBack?(): void
}

/**
 * Spec 02 "Passkey setup" for a user with no passkey yet: 'Set up passkey
 * verification', 'Add a new passkey'. A refused prompt shows the
 * catalogue's words and the button stays.
 */
export function MfaPasskeySetupScreen({ onAdd, onBack }: MfaPasskeySetupScreenProps) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const add = async () => {
    setBusy(true)
    setError(null)
    try {
      await onAdd()
    } catch (cause) {
      setError(mfaErrorMessage(cause))
      setBusy(false)
    }
  }

  return (
    <ScreenLayout
      title="Set up passkey verification"
      subtitle="Confirm wallet actions with your device's fingerprint, face or screen lock."
      media={
        <StatusIcon tone="neutral">
          <KeyIcon />
        </StatusIcon>
      }
      onBack={onBack}
    >
      {error && (
        <p className="lk-alert" role="alert">
          {error}
        </p>
      )}
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          disabled={busy}
          onClick={() => void add()}
        >
          {busy ? <Spinner size="sm" label="Waiting for your passkey" /> : 'Add a new passkey'}
        </button>
      </div>
    </ScreenLayout>
  )
}
