import { useMfa, useMfaEnrollment } from '@latchkey/react'

const labels = { totp: 'Authenticator app', sms: 'SMS', passkey: 'Passkey' } as const

/**
 * Transaction protection (docs/mfa.md): the user's MFA methods and the
 * modal's enrollment screens. With a method enrolled, signing, export and
 * recovery ask for a verification (15 minutes per device).
 */
export function Mfa() {
  const { mfaMethods } = useMfa()
  const { showMfaEnrollmentModal } = useMfaEnrollment()
  return (
    <div className="section">
      <h3 className="section-title">Transaction protection</h3>
      <p className="muted" data-testid="mfa-methods">
        {mfaMethods.length === 0
          ? 'No verification method'
          : mfaMethods.map((method) => labels[method]).join(', ')}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-secondary"
          onClick={() => showMfaEnrollmentModal()}
        >
          Manage MFA
        </button>
      </div>
    </div>
  )
}
