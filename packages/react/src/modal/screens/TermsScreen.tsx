import { type LatchkeyError, toLatchkeyError } from '@latchkey/core'
import { useState } from 'react'
import { ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface TermsScreenProps {
  termsUrl: string | null
  privacyUrl: string | null
  appName: string | null
  /** Accept: records the acceptance (core `acceptTerms`), then the post-login sequence goes on. */
  onAccept(): Promise<void>
  /** No thanks: logs the user out. */
  onDecline(): void
}

/**
 * Spec 02 "Terms consent": after a login, when the app requires it and the
 * user has not accepted yet, 'One last step' with View Terms, View Privacy
 * Policy (each in a new tab), Accept and No thanks.
 */
export function TermsScreen({
  termsUrl,
  privacyUrl,
  appName,
  onAccept,
  onDecline,
}: TermsScreenProps) {
  const [accepting, setAccepting] = useState(false)
  const [error, setError] = useState<LatchkeyError | null>(null)
  const accept = async () => {
    setAccepting(true)
    setError(null)
    try {
      await onAccept()
    } catch (cause) {
      setError(toLatchkeyError(cause))
      setAccepting(false)
    }
  }
  return (
    <ScreenLayout
      title="One last step"
      subtitle={`By continuing, you agree to the terms of service and privacy policy of ${appName ?? 'this app'}.`}
      media={
        <StatusIcon tone="neutral">
          <ShieldIcon />
        </StatusIcon>
      }
    >
      <div className="lk-stack">
        {(termsUrl || privacyUrl) && (
          <div className="lk-actions">
            {termsUrl && (
              <a
                className="lk-btn lk-btn-secondary"
                href={termsUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                View Terms
              </a>
            )}
            {privacyUrl && (
              <a
                className="lk-btn lk-btn-secondary"
                href={privacyUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                View Privacy Policy
              </a>
            )}
          </div>
        )}
        {error && (
          <p className="lk-alert" role="alert">
            {error.userMessage.title}
          </p>
        )}
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            onClick={() => void accept()}
            disabled={accepting}
            autoFocus
          >
            {accepting ? 'Accepting…' : 'Accept'}
          </button>
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            onClick={onDecline}
            disabled={accepting}
          >
            No thanks
          </button>
        </div>
      </div>
    </ScreenLayout>
  )
}
