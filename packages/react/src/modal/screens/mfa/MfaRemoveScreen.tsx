import { useState } from 'react'
import { AlertIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { mfaErrorMessage } from './mfa-errors.ts'
import type { MfaMethod } from './types.ts'

export interface MfaRemoveScreenProps {
  method: MfaMethod
  /** Passkeys only: how many leave MFA (the subtitle says so when more than one). */
  passkeyCount?: number
  /** Removes the method; resolving ends this screen. */
  onConfirm(): Promise<void>
  onCancel(): void
}

/** Spec 02 "Removal confirmations". */
export const removeTitles: Readonly<Record<MfaMethod, string>> = {
  sms: 'Remove SMS verification?',
  totp: 'Remove authenticator app verification?',
  passkey: 'Are you sure you want to remove this passkey?',
}

function subtitleOf(method: MfaMethod, passkeyCount: number) {
  if (method === 'sms') return 'Codes will no longer be sent to your phone.'
  if (method === 'totp') return 'Codes from your authenticator app will no longer be accepted.'
  return passkeyCount > 1
    ? `Your ${passkeyCount} passkeys will no longer be used for verification.`
    : 'It will no longer be used for verification.'
}

/** Remove (destructive) or Cancel; a refusal shows the catalogue's words and stays. */
export function MfaRemoveScreen({
  method,
  passkeyCount = 1,
  onConfirm,
  onCancel,
}: MfaRemoveScreenProps) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const remove = async () => {
    setBusy(true)
    setError(null)
    try {
      await onConfirm()
    } catch (cause) {
      setError(mfaErrorMessage(cause))
      setBusy(false)
    }
  }

  return (
    <ScreenLayout
      title={removeTitles[method]}
      subtitle={subtitleOf(method, passkeyCount)}
      media={
        <StatusIcon tone="error">
          <AlertIcon />
        </StatusIcon>
      }
    >
      {error && (
        <p className="lk-alert" role="alert">
          {error}
        </p>
      )}
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-danger"
          disabled={busy}
          onClick={() => void remove()}
        >
          {busy ? <Spinner size="sm" label="Removing" /> : 'Remove'}
        </button>
        <button
          type="button"
          className="lk-btn lk-btn-secondary"
          disabled={busy}
          onClick={onCancel}
        >
          Cancel
        </button>
      </div>
    </ScreenLayout>
  )
}
