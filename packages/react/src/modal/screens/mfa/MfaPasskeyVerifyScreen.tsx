import { type PasskeyAccount, toLatchkeyError } from '@latchkey/core'
import { useEffect, useRef, useState } from 'react'
import { AlertIcon, KeyIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { isBlockingMfaError, mfaErrorMessage } from './mfa-errors.ts'
import { dateFormat, newestAddedAt } from './passkey-info.ts'

export interface MfaPasskeyVerifyScreenProps {
  /** The user's MFA passkeys: the newest one's date shows. */
  passkeys: readonly PasskeyAccount[]
  /** Runs the passkey prompt and the verification; resolving ends this screen. */
  verify(): Promise<void>
  onChooseAnother?(): void
  onCancel(): void
}

type Failure = { message: string; blocking: boolean }

/**
 * Spec 02 "Passkey verification": 'Verifying with passkey', the prompt
 * started on entering; after a failure its reason and 'Try again' (or, for
 * too many attempts, only Close); 'Choose another method'; and the date the
 * passkey was last added.
 */
export function MfaPasskeyVerifyScreen({
  passkeys,
  verify,
  onChooseAnother,
  onCancel,
}: MfaPasskeyVerifyScreenProps) {
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<Failure | null>(null)
  const started = useRef(false)
  const added = newestAddedAt(passkeys)

  const run = async () => {
    setPending(true)
    setFailure(null)
    try {
      await verify()
    } catch (cause) {
      const error = toLatchkeyError(cause)
      setFailure({ message: mfaErrorMessage(error), blocking: isBlockingMfaError(error) })
      setPending(false)
    }
  }

  // The prompt opens on entering; once, even when effects run twice.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on entering only
  useEffect(() => {
    if (started.current) return
    started.current = true
    void run()
  }, [])

  return (
    <ScreenLayout
      title="Verifying with passkey"
      subtitle={
        failure ? undefined : "Follow your browser's prompt to confirm it's you with your passkey."
      }
      media={
        failure ? (
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        ) : (
          <StatusIcon tone="neutral">
            <KeyIcon />
          </StatusIcon>
        )
      }
    >
      <div className="lk-stack">
        {pending && (
          <div className="lk-status">
            <Spinner label="Waiting for your passkey" />
          </div>
        )}
        {failure && (
          <p className="lk-alert" role="alert">
            {failure.message}
          </p>
        )}
        {added && (
          <p className="lk-legal" style={{ textAlign: 'center' }}>
            Passkey added on {dateFormat.format(added)}
          </p>
        )}
        <div className="lk-actions">
          {failure?.blocking ? (
            <button type="button" className="lk-btn lk-btn-primary" onClick={onCancel}>
              Close
            </button>
          ) : (
            <>
              {failure && (
                <button type="button" className="lk-btn lk-btn-primary" onClick={() => void run()}>
                  Try again
                </button>
              )}
              {onChooseAnother && (
                <button type="button" className="lk-btn lk-btn-secondary" onClick={onChooseAnother}>
                  Choose another method
                </button>
              )}
              <button type="button" className="lk-link-btn lk-explainer-toggle" onClick={onCancel}>
                Cancel
              </button>
            </>
          )}
        </div>
      </div>
    </ScreenLayout>
  )
}
